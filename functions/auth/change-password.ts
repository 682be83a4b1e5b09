import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { ChangePasswordDto } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { changePassword } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'auth.changePassword', returns: returns<UserResponse>(), body: ChangePasswordDto },
  async ({ auth, body }) => mapUser(await changePassword(auth, body)),
);
