/**
 * Work for the media function that is not an upload: a person's thumbnail when their feature face
 * changes (PUT /person/:id). The API functions carry no codecs, so they hand the work on.
 * Deployed, an asynchronous Lambda invocation of the media function (`MEDIA_FUNCTION`, its ARN):
 * Lambda queues it, retries it twice, and sends a failure to the media function's dead-letter
 * queue, as for uploads; the request does not wait. Locally, the server registers a runner that
 * calls the same handler in the same process (infra/local/http-server.ts).
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as env from '../core/env.ts';
import { log } from '../core/log.ts';

export interface PersonThumbnailJob {
  kind: 'person-thumbnail';
  ownerId: string;
  personId: string;
}

/** An asset's previews and thumbhash, asked for when it is recorded after its object was created (upload sessions). */
export interface AssetMediaJob {
  kind: 'asset-media';
  assetId: string;
  /** An upload's (an upload session's file): its owner's apps are told once the previews exist, as for any upload. */
  notify?: boolean;
}

/** An asset's edited files, made for its photo edits as they are now (or removed when it has none). */
export interface AssetEditsJob {
  kind: 'asset-edits';
  assetId: string;
}

/**
 * Immich's metadata job again for an asset (`refresh-metadata`, and the metadataExtraction queue
 * started over every library): its file's keywords as its tags (shared/services/file-tags.ts),
 * then its place names from its position and its place on the map (docs/places.md).
 */
export interface AssetPlacesJob {
  kind: 'asset-places';
  assetId: string;
}

/**
 * An asset's faces detected from its preview and recognised (Immich's face detection job:
 * `refresh-faces`, and the faceDetection queue started: docs/faces.md); only where they were
 * never looked for, unless `force`. With `recognize`, none is detected: its faces still without a
 * person are recognised again (the facialRecognition queue started).
 */
export interface AssetFacesJob {
  kind: 'asset-faces';
  assetId: string;
  force: boolean;
  recognize?: boolean;
}

/**
 * An asset's CLIP embedding for smart search (Immich's smartSearch job: the queue started,
 * docs/search.md): only when it has none under the current model, unless `force`.
 */
export interface AssetClipJob {
  kind: 'asset-clip';
  assetId: string;
  force: boolean;
}

/** An asset's text found again (the ocr queue started: docs/immich-compatibility.md, "OCR"); only where never looked for, unless `force`. */
export interface AssetOcrJob {
  kind: 'asset-ocr';
  assetId: string;
  force: boolean;
}

/**
 * An asset's duplicates detected (Immich's duplicateDetection queue started: docs/immich-compatibility.md,
 * "Duplicates"): its preview hashed and its neighbours grouped; only where it was never looked at,
 * unless `force` ("all").
 */
export interface AssetDuplicatesJob {
  kind: 'asset-duplicates';
  assetId: string;
  force: boolean;
}

export type MediaJob =
  | PersonThumbnailJob
  | AssetMediaJob
  | AssetEditsJob
  | AssetPlacesJob
  | AssetFacesJob
  | AssetClipJob
  | AssetOcrJob
  | AssetDuplicatesJob;

/** The event the media function receives for jobs (beside the bucket's object-created events). */
export interface MediaJobEvent {
  jobs: MediaJob[];
}

let localRunner: ((event: MediaJobEvent) => void) | undefined;

/** Where jobs go when there is no media function to invoke: the local server's own runner. */
export const runMediaJobsWith = (runner: ((event: MediaJobEvent) => void) | undefined): void => {
  localRunner = runner;
};

let client: LambdaClient | undefined;

/**
 * Hands jobs to the media function. The caller's change is already written: a job that cannot
 * be handed on is logged, never an error for the request (the old thumbnail stays until the next).
 */
export const queueMediaJobs = async (jobs: MediaJob[]): Promise<void> => {
  if (jobs.length === 0) return;
  const event: MediaJobEvent = { jobs };
  const target = env.mediaFunction();
  if (!target) {
    if (localRunner) localRunner(event);
    else log.warn('No media function to run jobs', { jobs: jobs.length });
    return;
  }
  try {
    client ??= new LambdaClient({});
    await client.send(new InvokeCommand({ FunctionName: target, InvocationType: 'Event', Payload: JSON.stringify(event) }));
  } catch (error) {
    log.error('Media jobs were not queued', { jobs: jobs.length, error: String(error) });
  }
};
