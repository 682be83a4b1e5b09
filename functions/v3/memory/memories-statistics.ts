import type { MemoryStatisticsResponseDto } from '#shared/dto/v3/memory.response.ts';
import { MemorySearchDto } from '#shared/dto/v3/memory.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { memoryStatistics } from '#shared/services/memory.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'memory.statistics',
    query: MemorySearchDto,
    returns: returns<MemoryStatisticsResponseDto>(),
  },
  ({ auth, query }) => memoryStatistics(auth, query),
);
