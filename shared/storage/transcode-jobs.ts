/**
 * Videos handed to the transcode function (functions/media/transcode-video.ts; docs/media.md,
 * "Transcoding"): after an upload's poster, by the `transcode-video` asset job and by the
 * videoConversion queue started. Deployed, an asynchronous Lambda invocation of the transcode
 * function (`TRANSCODE_FUNCTION`, its ARN): Lambda queues it, retries it twice and keeps a failure
 * in its dead-letter queue; the caller does not wait. Locally, the server registers a runner that
 * calls the same handler in the same process (infra/local/http-server.ts), as for media jobs.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as env from '../core/env.ts';
import { log } from '../core/log.ts';

/**
 * One video to decide and encode (Immich's AssetEncodeVideo). `force` (an upload's, the asset job,
 * the queue's "all"): decided under the settings as they are now, whatever it has; without it (the
 * queue's "missing"), only a video in view that has no encoded version yet.
 */
export interface TranscodeJob {
  kind: 'transcode';
  assetId: string;
  force?: boolean;
}

/** The event the transcode function receives for jobs (beside MediaConvert's completions). */
export interface TranscodeJobEvent {
  jobs: TranscodeJob[];
}

let localRunner: ((event: TranscodeJobEvent) => void) | undefined;

/** Where jobs go when there is no transcode function to invoke: the local server's own runner. */
export const runTranscodeJobsWith = (runner: ((event: TranscodeJobEvent) => void) | undefined): void => {
  localRunner = runner;
};

let client: LambdaClient | undefined;

/**
 * Hands videos to the transcode function. What the caller did is already written: a job that
 * cannot be handed on is logged, never an error for the request (the video plays its original).
 */
export const queueTranscodeJobs = async (jobs: TranscodeJob[]): Promise<void> => {
  if (jobs.length === 0) return;
  const event: TranscodeJobEvent = { jobs };
  const target = env.transcodeFunction();
  if (!target) {
    if (localRunner) localRunner(event);
    else log.warn('No transcode function to run jobs', { jobs: jobs.length });
    return;
  }
  try {
    client ??= new LambdaClient({});
    await client.send(new InvokeCommand({ FunctionName: target, InvocationType: 'Event', Payload: JSON.stringify(event) }));
  } catch (error) {
    log.error('Transcode jobs were not queued', { jobs: jobs.length, error: String(error) });
  }
};
