import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { IdParams } from '#shared/schemas/common.ts';
import type { UserResponse } from '#shared/schemas/user.ts';
import { getUserById } from '#shared/services/user.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<UserResponse>(), params: IdParams }, ({ params }) =>
  getUserById(params.id),
);
