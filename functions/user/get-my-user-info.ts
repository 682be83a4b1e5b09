import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMyUserInfo } from '#shared/services/user/user.service.ts';

export const handler = httpHandler({ access: 'user', permission: 'user.read', returns: returns<UserResponse>() }, async ({ auth }) =>
  mapUser(await getMyUserInfo(auth)),
);
