import { type MemoryResponseDto, mapMemory } from '#shared/dto/v3/memory.response.ts';
import { MemoryCreateDto } from '#shared/dto/v3/memory.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createMemory } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'memory.create',
    body: MemoryCreateDto,
    returns: returns<MemoryResponseDto>(),
    status: 201,
  },
  async ({ auth, body }) => mapMemory(await createMemory(auth, body), auth.user.id),
);
