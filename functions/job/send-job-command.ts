import { mapQueueLegacy, QueueCommandDto, QueueNameParams, type QueueResponseLegacyDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sendJobCommand } from '#shared/services/job.service.ts';

// Both generations' path: v1.100's sendJobCommand and v3's runQueueCommandLegacy.
export const handler = httpHandler(
  {
    access: 'admin',
    permission: 'job.create',
    params: QueueNameParams,
    body: QueueCommandDto,
    returns: returns<QueueResponseLegacyDto>(),
  },
  async ({ params, body }) => mapQueueLegacy(await sendJobCommand(params.name, body.command, body.force ?? false)),
);
