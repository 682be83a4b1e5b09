import { IdParams } from '#shared/dto/common.ts';
import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { readConfig } from '#shared/services/config.reader.ts';
import { getVisibleUser } from '#shared/services/user/visibility.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'user.read', returns: returns<UserResponse>(), params: IdParams },
  async ({ auth, params }) => mapUser(await getVisibleUser(auth, params.id, (await readConfig()).server.publicUsers)),
);
