import { AssetJobsDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { runAssetJobs } from '#shared/services/job.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'job.create', body: AssetJobsDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => runAssetJobs(auth, body.assetIds, body.name),
);
