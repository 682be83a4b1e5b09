import { type MemoryResponseDto, mapMemory } from '#shared/dto/v3/memory.response.ts';
import { MemorySearchDto } from '#shared/dto/v3/memory.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchMemories } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'memory.read', query: MemorySearchDto, returns: returns<MemoryResponseDto[]>() },
  async ({ auth, query }) => (await searchMemories(auth, query)).map((view) => mapMemory(view, auth.user.id)),
);
