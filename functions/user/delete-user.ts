import { IdParams } from '#shared/dto/common.ts';
import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { DeleteUserDto } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeUser } from '#shared/services/user/removal.service.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'adminUser.delete', returns: returns<UserResponse>(), params: IdParams, body: DeleteUserDto },
  async ({ params, body }) => mapUser(await removeUser(params.id, body.force ?? false)),
);
