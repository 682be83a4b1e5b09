import { IdParams } from '#shared/dto/common.ts';
import { type ApiKeyResponseDto, mapApiKeyV3 } from '#shared/dto/v3/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'apiKey.read', returns: returns<ApiKeyResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapApiKeyV3(await getApiKey(auth, params.id)),
);
