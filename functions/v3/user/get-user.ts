import { IdParams } from '#shared/dto/common.ts';
import { mapUserV3, type UserResponseDto } from '#shared/dto/v3/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { readConfig } from '#shared/services/config.reader.ts';
import { getVisibleUser } from '#shared/services/user/visibility.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.read', returns: returns<UserResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapUserV3(await getVisibleUser(auth, params.id, (await readConfig()).server.publicUsers)),
);
