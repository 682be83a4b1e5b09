import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { UserResponse } from '#shared/schemas/user.ts';
import { ChangePasswordDto } from '#shared/schemas/user.ts';
import { changePassword } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<UserResponse>(), body: ChangePasswordDto }, ({ auth, body }) =>
  changePassword(auth, body),
);
