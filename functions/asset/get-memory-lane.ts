import { MemoryLaneDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMemoryLane, type MemoryLaneResponseDto } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<MemoryLaneResponseDto[]>(), query: MemoryLaneDto },
  ({ auth, query }) => getMemoryLane(auth, query),
);
