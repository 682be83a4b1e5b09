import { JobCreateDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createJob } from '#shared/services/job.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'job.create', body: JobCreateDto, returns: returns<void>(), status: 204 },
  ({ body }) => createJob(body.name),
);
