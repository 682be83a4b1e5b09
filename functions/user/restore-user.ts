import { IdParams } from '#shared/dto/common.ts';
import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { restoreUser } from '#shared/services/user.service.ts';

export const handler = httpHandler(
  { access: 'admin', returns: returns<UserResponse>(), params: IdParams, status: 201 },
  async ({ params }) => mapUser(await restoreUser(params.id)),
);
