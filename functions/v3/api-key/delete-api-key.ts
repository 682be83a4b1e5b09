import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'apiKey.delete', returns: returns<void>(), params: IdParams, status: 204 },
  ({ auth, params }) => deleteApiKey(auth, params.id),
);
