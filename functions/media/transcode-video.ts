/**
 * The transcode function: not an API route (docs/media.md, "Transcoding"). Deployed, the media
 * function and the API functions invoke it asynchronously with videos to encode
 * (shared/storage/transcode-jobs.ts), and EventBridge with MediaConvert's job state changes;
 * locally the server runs it in process (infra/local/http-server.ts). Each job is one run of
 * Immich's videoConversion queue (the jobs page counts it), one after the other: ffmpeg uses the
 * function's every core.
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { completeMediaConvertJob, type MediaConvertStateChange, transcodeAsset } from '#shared/services/media/transcode.service.ts';
import { recordRun } from '#shared/services/queue-runs.ts';
import type { TranscodeJobEvent } from '#shared/storage/transcode-jobs.ts';

const isStateChange = (event: TranscodeJobEvent | MediaConvertStateChange): event is MediaConvertStateChange =>
  'source' in event && event.source === 'aws.mediaconvert';

/** A job that could not encode its video is a failed run of the queue (and the next job still runs). */
class NotEncoded extends Error {}

export const handler = async (event: TranscodeJobEvent | MediaConvertStateChange): Promise<{ outcomes: Record<string, string> }> =>
  withLogContext({}, async () => {
    const outcomes: Record<string, string> = {};
    if (isStateChange(event)) {
      outcomes[`mediaconvert/${event.detail.userMetadata?.assetId ?? event.detail.jobId ?? ''}`] = await completeMediaConvertJob(event);
    } else {
      for (const job of event.jobs ?? []) {
        if (job.kind !== 'transcode') continue;
        outcomes[`transcode/${job.assetId}`] = await recordRun('videoConversion', async () => {
          const outcome = await transcodeAsset(job.assetId, { force: job.force === true });
          if (outcome === 'failed') throw new NotEncoded();
          return outcome;
        }).catch((error: unknown) => {
          if (error instanceof NotEncoded) return 'failed';
          throw error;
        });
      }
    }
    log.info('transcode', { outcomes });
    return { outcomes };
  });
