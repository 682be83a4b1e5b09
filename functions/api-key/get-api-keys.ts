import type { APIKeyResponse } from '#shared/dto/v1/api-key.response.ts';
import { mapApiKey } from '#shared/dto/v1/api-key.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getApiKeys } from '#shared/services/api-key.service.ts';

export const handler = httpHandler({ access: 'user', permission: 'apiKey.read', returns: returns<APIKeyResponse[]>() }, async ({ auth }) =>
  (await getApiKeys(auth)).map(mapApiKey),
);
