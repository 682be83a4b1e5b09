import { mapQueue, type QueueResponseDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getQueueStatuses } from '#shared/services/queue.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'queue.read', returns: returns<QueueResponseDto[]>() },
  async () => (await getQueueStatuses()).map(mapQueue),
);
