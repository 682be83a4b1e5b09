/**
 * The media function: not an API route. Deployed, the originals bucket invokes it (asynchronously,
 * with Lambda's retries and a dead-letter queue) for every object created; locally the server
 * invokes it with the same event right after an upload (infra/local/http-server.ts). For each
 * original it runs the upload's steps (shared/services/media/pipeline.ts; docs/media.md). API
 * functions invoke it the same way with jobs (shared/storage/media-jobs.ts), each run by its row
 * of `runners` below.
 */
import { log, withLogContext } from '#shared/core/log.ts';
import type { QueueName } from '#shared/model/queue.ts';
import { collectEvents } from '#shared/realtime/outbox.ts';
import { publish } from '#shared/realtime/publisher.ts';
import {
  duplicateDetectionSteps,
  editSteps,
  faceDetectionSteps,
  faceRecognitionSteps,
  type MediaJob,
  type MediaJobEvent,
} from '#shared/services/media/jobs.ts';
import { refreshAssetsMetadata } from '#shared/services/media/metadata-refresh.service.ts';
import { assetIdOfOriginalKey, originalExists } from '#shared/services/media/originals.ts';
import { makePersonThumbnail, processUpload, runJobSteps } from '#shared/services/media/pipeline.ts';
import type { MediaOutcome } from '#shared/services/media/step.ts';
import { clipJobSteps } from '#shared/services/media/steps/clip.ts';
import { ocrJobSteps } from '#shared/services/media/steps/ocr.ts';
import { recordRun } from '#shared/services/queue-runs.ts';

/** What the function reads of an S3 event (an S3Event is one): the keys of the objects created. */
export interface ObjectCreatedEvent {
  Records?: { s3: { object: { key: string } } }[];
}

/** How long an object may wait for its asset to be recorded (the upload stores the file first). */
const recordWaitMs = [250, 500, 1000, 2000, 4000];

const forKey = async (key: string): Promise<MediaOutcome | 'ignored'> => {
  const assetId = assetIdOfOriginalKey(key);
  if (!assetId) return 'ignored';
  for (const wait of [...recordWaitMs, undefined]) {
    // An original's object created: an upload, whose owner's apps are told once its previews exist.
    const outcome = await processUpload(assetId, { notify: true });
    if (outcome !== 'not-yet' || wait === undefined) return outcome;
    // No asset and no file: its upload failed (and removed the file), or it was deleted since.
    if (!(await originalExists(key))) return 'gone';
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return 'not-yet';
};

/**
 * Runs one job and tells Immich's apps what it did (its previews, a person's thumbnail, an edit's
 * files: docs/web-app.md, "Realtime"), as soon as it is done, before the next job.
 */
const told = async <T>(job: () => Promise<T>): Promise<T> => {
  const { result, events } = await collectEvents(job);
  await publish(events);
  return result;
};

type JobOf<K extends MediaJob['kind']> = Extract<MediaJob, { kind: K }>;

/**
 * A job kind's runner: the outcome's key, the Immich queue whose run it is (for the jobs page), the
 * work: named steps on one asset (docs/media.md, "Jobs"), the upload's or the job's own.
 */
interface Runner<J> {
  key: (job: J) => string;
  queue: (job: J) => QueueName;
  run: (job: J) => Promise<MediaOutcome>;
}

/** Each job is one run of its queue, told to the apps when done; an event's place jobs are one run together (below). */
const runners: { [K in Exclude<MediaJob['kind'], 'asset-places'>]: Runner<JobOf<K>> } = {
  // The person's feature asset: ensure-preview, then person-thumbnail.
  'person-thumbnail': {
    key: (job) => `person/${job.personId}`,
    queue: () => 'thumbnailGeneration',
    run: (job) => makePersonThumbnail(job.ownerId, job.personId),
  },
  'asset-media': {
    key: (job) => `asset/${job.assetId}`,
    queue: () => 'thumbnailGeneration',
    run: (job) => processUpload(job.assetId, { notify: job.notify === true }),
  },
  'asset-edits': {
    key: (job) => `edits/${job.assetId}`,
    queue: () => 'thumbnailGeneration',
    run: (job) => runJobSteps(job.assetId, editSteps),
  },
  // Immich's faceDetection queue, or facialRecognition's for recognition alone.
  'asset-faces': {
    key: (job) => `faces/${job.assetId}`,
    queue: (job) => (job.recognize ? 'facialRecognition' : 'faceDetection'),
    run: (job) => runJobSteps(job.assetId, job.recognize ? faceRecognitionSteps : faceDetectionSteps(job.force)),
  },
  // Immich's smartSearch queue: an asset's CLIP embedding (docs/search.md).
  'asset-clip': {
    key: (job) => `clip/${job.assetId}`,
    queue: () => 'smartSearch',
    run: (job) => runJobSteps(job.assetId, clipJobSteps(job.force)),
  },
  'asset-ocr': { key: (job) => `ocr/${job.assetId}`, queue: () => 'ocr', run: (job) => runJobSteps(job.assetId, ocrJobSteps(job.force)) },
  // Immich's duplicateDetection queue (docs/immich-compatibility.md, "Duplicates").
  'asset-duplicates': {
    key: (job) => `duplicates/${job.assetId}`,
    queue: () => 'duplicateDetection',
    run: (job) => runJobSteps(job.assetId, duplicateDetectionSteps(job.force)),
  },
};

const runJob = async (job: Exclude<MediaJob, JobOf<'asset-places'>>): Promise<[string, string]> => {
  const runner = runners[job.kind] as Runner<typeof job>;
  return [runner.key(job), await told(() => recordRun(runner.queue(job), () => runner.run(job)))];
};

export const handler = async (event: ObjectCreatedEvent | MediaJobEvent): Promise<{ outcomes: Record<string, string> }> =>
  withLogContext({}, async () => {
    const outcomes: Record<string, string> = {};
    const jobs = 'jobs' in event ? event.jobs : [];
    for (const job of jobs)
      if (job.kind !== 'asset-places' && job.kind in runners) {
        const [key, outcome] = await runJob(job);
        outcomes[key] = outcome;
      }
    // An event's metadata jobs (keywords as tags, then places: docs/places.md) are one run of Immich's metadataExtraction queue.
    const places = jobs.flatMap((job) => (job.kind === 'asset-places' ? [job.assetId] : []));
    if (places.length > 0)
      for (const [assetId, outcome] of await recordRun('metadataExtraction', () => refreshAssetsMetadata(places)))
        outcomes[`places/${assetId}`] = outcome;
    for (const record of 'Records' in event ? (event.Records ?? []) : []) {
      // S3 sends keys URL-encoded, spaces as '+'.
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      // Sidecars and the like are no job: each upload is a run of Immich's thumbnailGeneration queue.
      outcomes[key] = assetIdOfOriginalKey(key) ? await told(() => recordRun('thumbnailGeneration', () => forKey(key))) : 'ignored';
    }
    // An asset never recorded (its upload failed and removed the file) ends here, not in a retry.
    log.info('media', { outcomes });
    return { outcomes };
  });
