import { QueueDeleteDto, QueueNameParams } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { emptyQueue } from '#shared/services/queue.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'queueJob.delete',
    params: QueueNameParams,
    body: QueueDeleteDto,
    returns: returns<void>(),
    status: 204,
  },
  ({ params, body }) => emptyQueue(params.name, body.failed),
);
