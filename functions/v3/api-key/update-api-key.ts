import { IdParams } from '#shared/dto/common.ts';
import { type ApiKeyResponseDto, ApiKeyUpdateDto, mapApiKeyV3 } from '#shared/dto/v3/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'apiKey.update',
    returns: returns<ApiKeyResponseDto>(),
    params: IdParams,
    body: ApiKeyUpdateDto,
  },
  async ({ auth, params, body }) => mapApiKeyV3(await updateApiKey(auth, params.id, body)),
);
