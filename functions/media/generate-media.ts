/**
 * The media function: not an API route. Deployed, the originals bucket invokes it (asynchronously,
 * with Lambda's retries and a dead-letter queue) for every object created; locally the server
 * invokes it with the same event right after an upload (infra/local/http-server.ts). For each
 * original it makes the asset's previews and thumbhash (shared/services/media.service.ts). API
 * functions invoke it the same way with jobs: a person's thumbnail after a new feature face
 * (shared/storage/media-jobs.ts).
 */
import { log, withLogContext } from '#shared/core/log.ts';
import { collectEvents } from '#shared/realtime/outbox.ts';
import { publish } from '#shared/realtime/publisher.ts';
import {
  assetIdOfOriginalKey,
  detectAssetFaces,
  generateEditedMedia,
  generateMedia,
  type MediaJobEvent,
  type MediaOutcome,
  makePersonThumbnail,
  originalExists,
  recognizeAssetFaces,
} from '#shared/services/media.service.ts';
import { refreshAssetsMetadata } from '#shared/services/metadata-refresh.service.ts';
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
    const outcome = await generateMedia(assetId, { notify: true });
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

export const handler = async (event: ObjectCreatedEvent | MediaJobEvent): Promise<{ outcomes: Record<string, string> }> =>
  withLogContext({}, async () => {
    const outcomes: Record<string, string> = {};
    // Each job is a run of Immich's thumbnailGeneration queue, counted for the jobs page.
    const thumbnails = <T>(job: () => Promise<T>) => told(() => recordRun('thumbnailGeneration', job));
    for (const job of 'jobs' in event ? event.jobs : []) {
      if (job.kind === 'person-thumbnail')
        outcomes[`person/${job.personId}`] = await thumbnails(() => makePersonThumbnail(job.ownerId, job.personId));
      else if (job.kind === 'asset-media')
        outcomes[`asset/${job.assetId}`] = await thumbnails(() => generateMedia(job.assetId, { notify: job.notify === true }));
      else if (job.kind === 'asset-edits') outcomes[`edits/${job.assetId}`] = await thumbnails(() => generateEditedMedia(job.assetId));
      // Each face job is a run of Immich's faceDetection queue (or facialRecognition's, recognition alone).
      else if (job.kind === 'asset-faces' && job.recognize)
        outcomes[`faces/${job.assetId}`] = await told(() => recordRun('facialRecognition', () => recognizeAssetFaces(job.assetId)));
      else if (job.kind === 'asset-faces')
        outcomes[`faces/${job.assetId}`] = await told(() => recordRun('faceDetection', () => detectAssetFaces(job.assetId, job.force)));
    }
    // An event's metadata jobs (keywords as tags, then places: docs/places.md) are one run of Immich's metadataExtraction queue.
    const places = ('jobs' in event ? event.jobs : []).flatMap((job) => (job.kind === 'asset-places' ? [job.assetId] : []));
    if (places.length > 0)
      for (const [assetId, outcome] of await recordRun('metadataExtraction', () => refreshAssetsMetadata(places)))
        outcomes[`places/${assetId}`] = outcome;
    for (const record of 'Records' in event ? (event.Records ?? []) : []) {
      // S3 sends keys URL-encoded, spaces as '+'.
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      // Sidecars and the like are no job.
      outcomes[key] = assetIdOfOriginalKey(key) ? await thumbnails(() => forKey(key)) : 'ignored';
    }
    // An asset never recorded (its upload failed and removed the file) ends here, not in a retry.
    log.info('media', { outcomes });
    return { outcomes };
  });
