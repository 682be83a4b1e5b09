import { mapQueue, QueueNameParams, type QueueResponseDto, QueueUpdateDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateQueue } from '#shared/services/queue.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'queue.update',
    params: QueueNameParams,
    body: QueueUpdateDto,
    returns: returns<QueueResponseDto>(),
  },
  async ({ params, body }) => mapQueue(await updateQueue(params.name, body.isPaused)),
);
