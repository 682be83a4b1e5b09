import type { APIKeyCreateResponse } from '#shared/dto/v1/api-key.response.ts';
import { mapCreatedApiKey } from '#shared/dto/v1/api-key.response.ts';
import { APIKeyCreateDto } from '#shared/dto/v1/api-key.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'apiKey.create', returns: returns<APIKeyCreateResponse>(), body: APIKeyCreateDto, status: 201 },
  // v1.100's keys may do everything (v1.100 had no permissions).
  async ({ auth, body }) => mapCreatedApiKey(await createApiKey(auth, { name: body.name, permissions: ['all'] })),
);
