import { QueueJobSearchDto, QueueNameParams } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

// Nothing waits in a queue here (Lambda runs each job as its event arrives), and a run's job is
// not kept: the list is empty (docs/immich-compatibility.md, "Jobs and queues").
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'queueJob.read',
    params: QueueNameParams,
    query: QueueJobSearchDto,
    returns: returns<unknown[]>(),
  },
  () => [],
);
