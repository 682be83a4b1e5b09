/**
 * The transcode function's entry (infra/cdk/transcode-function.ts). A placeholder on the branch
 * that builds the deployed form: the transcode service's handler (jobs `{ jobs }` from the media
 * function and the job routes, and MediaConvert's job state changes) replaces it. Until then it
 * reads what it is given and records it in the log, so the template's function starts and answers.
 */
import { log } from '#shared/core/log.ts';
import { readMediaConvertEvent } from '#shared/media/mediaconvert.ts';

export const handler = async (event: unknown): Promise<void> => {
  const completion = readMediaConvertEvent(event);
  if (completion) log.info('MediaConvert job ended', { jobId: completion.jobId, status: completion.status, assetId: completion.assetId });
  else
    log.info('Transcode event', {
      jobs: Array.isArray((event as { jobs?: unknown }).jobs) ? (event as { jobs: unknown[] }).jobs.length : 0,
    });
};
