import { IdParams } from '#shared/dto/common.ts';
import { type MemoryResponseDto, mapMemory } from '#shared/dto/v3/memory.response.ts';
import { MemoryUpdateDto } from '#shared/dto/v3/memory.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateMemory } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'memory.update',
    params: IdParams,
    body: MemoryUpdateDto,
    returns: returns<MemoryResponseDto>(),
  },
  async ({ auth, params, body }) => mapMemory(await updateMemory(auth, params.id, body), auth.user.id),
);
