import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { logoutAuthDevice } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'session.delete', returns: returns<void>(), params: IdParams, status: 204 },
  ({ auth, params }) => logoutAuthDevice(auth, params.id),
);
