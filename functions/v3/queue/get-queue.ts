import { mapQueue, QueueNameParams, type QueueResponseDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getQueueStatus } from '#shared/services/queue.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'queue.read', params: QueueNameParams, returns: returns<QueueResponseDto>() },
  async ({ params }) => mapQueue(await getQueueStatus(params.name)),
);
