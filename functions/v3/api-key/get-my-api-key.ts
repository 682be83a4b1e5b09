import { type ApiKeyResponseDto, mapApiKeyV3 } from '#shared/dto/v3/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMyApiKey } from '#shared/services/api-key.service.ts';

// Any key may read itself: the CLI checks its permissions here before it starts.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: false, returns: returns<ApiKeyResponseDto>() },
  async ({ auth }) => mapApiKeyV3(await getMyApiKey(auth)),
);
