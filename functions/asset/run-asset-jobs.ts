import { AssetJobsDto } from '#shared/dto/v3/queue.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { runAssetJobs } from '#shared/services/job.service.ts';

// v1.100's POST /asset/jobs (its `AssetJobsDto`, read with v3's, which adds `refresh-faces`).
export const handler = httpHandler(
  { access: 'user', permission: 'job.create', body: AssetJobsDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => runAssetJobs(auth, body.assetIds, body.name),
);
