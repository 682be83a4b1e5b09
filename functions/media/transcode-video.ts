/**
 * The transcode function: not an API route (docs/media.md, "Transcoding"). Deployed, the media
 * function and the API functions invoke it asynchronously with videos to encode
 * (shared/storage/transcode-jobs.ts), and EventBridge with MediaConvert's job state changes;
 * locally the server runs it in process (infra/local/http-server.ts). Each job is one run of
 * Immich's videoConversion queue (the jobs page counts it), one after the other: ffmpeg uses the
 * function's every core.
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { completeMediaConvertJob, type TranscodeJobEvent, transcodeAsset } from '#shared/services/media/transcode.service.ts';
import { recordRun } from '#shared/services/queue-runs.ts';

/** An EventBridge event (MediaConvert's job state change, read by the service): it has a `source`, the jobs' events none. */
interface EventBridgeEvent {
  source: string;
  'detail-type'?: string;
  detail?: { status?: string; userMetadata?: { assetId?: string } } & Record<string, unknown>;
}

const isEventBridge = (event: TranscodeJobEvent | EventBridgeEvent): event is EventBridgeEvent => 'source' in event;

/** A job that could not encode its video is a failed run of the queue (and the next job still runs). */
class NotEncoded extends Error {}

export const handler = async (event: TranscodeJobEvent | EventBridgeEvent): Promise<{ outcomes: Record<string, string> }> =>
  withLogContext({}, async () => {
    const outcomes: Record<string, string> = {};
    if (isEventBridge(event)) {
      // MediaConvert's job state change: another state, or a job not of ours, is ignored.
      const assetId = event.detail?.userMetadata?.assetId ?? '';
      outcomes[`mediaconvert/${assetId}`] = (await completeMediaConvertJob(event)) ?? 'ignored';
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
