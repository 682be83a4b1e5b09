import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { GetAllUsersQuery } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { readConfig } from '#shared/services/config.reader.ts';
import { getAllUsers } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'user.read', returns: returns<UserResponse[]>(), query: GetAllUsersQuery },
  async ({ auth, query }) => (await getAllUsers(auth, query.isAll, (await readConfig()).server.publicUsers)).map(mapUser),
);
