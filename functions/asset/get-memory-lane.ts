import type { MemoryLaneResponseDto } from '#shared/dto/v1/asset.response.ts';
import { mapMemoryLane } from '#shared/dto/v1/asset.response.ts';
import { MemoryLaneDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMemoryLane } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'memory.read', returns: returns<MemoryLaneResponseDto[]>(), query: MemoryLaneDto },
  async ({ auth, query }) => (await getMemoryLane(auth, query)).map((group) => mapMemoryLane(group, auth.user.id)),
);
