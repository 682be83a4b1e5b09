import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { UpdateUserDto } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateUserInfo } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'user.update', returns: returns<UserResponse>(), body: UpdateUserDto },
  async ({ auth, body }) => mapUser(await updateUserInfo(auth, body)),
);
