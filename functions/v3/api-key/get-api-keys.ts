import { type ApiKeyResponseDto, mapApiKeyV3 } from '#shared/dto/v3/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getApiKeys } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'apiKey.read', returns: returns<ApiKeyResponseDto[]>() },
  async ({ auth }) => (await getApiKeys(auth)).map(mapApiKeyV3),
);
