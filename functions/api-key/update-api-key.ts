import { IdParams } from '#shared/dto/common.ts';
import { type APIKeyResponse, mapApiKey } from '#shared/dto/v1/api-key.response.ts';
import { APIKeyUpdateDto } from '#shared/dto/v1/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'apiKey.update', returns: returns<APIKeyResponse>(), params: IdParams, body: APIKeyUpdateDto },
  async ({ auth, params, body }) => mapApiKey(await updateApiKey(auth, params.id, body)),
);
