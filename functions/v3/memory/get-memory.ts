import { IdParams } from '#shared/dto/common.ts';
import { type MemoryResponseDto, mapMemory } from '#shared/dto/v3/memory.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMemory } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'memory.read', params: IdParams, returns: returns<MemoryResponseDto>() },
  async ({ auth, params }) => mapMemory(await getMemory(auth, params.id), auth.user.id),
);
