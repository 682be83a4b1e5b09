import { mapQueuesLegacy, type QueueResponseLegacyDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getQueueStatuses } from '#shared/services/queue.service.ts';

// Both generations' path: v1.100's getAllJobsStatus and v3's getQueuesLegacy answer the same shape
// (v1.100's clients read their twelve queues of v3's nineteen).
export const handler = httpHandler(
  { access: 'admin', permission: 'job.read', returns: returns<Record<string, QueueResponseLegacyDto>>() },
  async () => mapQueuesLegacy(await getQueueStatuses()),
);
