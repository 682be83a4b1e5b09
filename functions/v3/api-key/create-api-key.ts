import { ApiKeyCreateDto, type ApiKeyCreateResponseDto, mapCreatedApiKeyV3 } from '#shared/dto/v3/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'apiKey.create',
    returns: returns<ApiKeyCreateResponseDto>(),
    body: ApiKeyCreateDto,
    status: 201,
  },
  async ({ auth, body }) => mapCreatedApiKeyV3(await createApiKey(auth, body)),
);
