import { IdParams } from '#shared/dto/common.ts';
import type { APIKeyResponse } from '#shared/dto/v1/api-key.response.ts';
import { mapApiKey } from '#shared/dto/v1/api-key.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'apiKey.read', returns: returns<APIKeyResponse>(), params: IdParams },
  async ({ auth, params }) => mapApiKey(await getApiKey(auth, params.id)),
);
