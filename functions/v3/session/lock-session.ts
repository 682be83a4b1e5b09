import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { lockSessionById } from '#shared/services/session.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'session.lock', params: IdParams, returns: returns<void>(), status: 204 },
  ({ auth, params }) => lockSessionById(auth, params.id),
);
