import { requireAssets } from '../access/asset-access.ts';
import { Permission } from '../access/permission.ts';
import { inBatches } from '../core/concurrency.ts';
import { Invalid } from '../core/errors.ts';
import * as folderRepo from '../db/folder.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import { mimeTypeOf } from '../domain/media-types.ts';
import type { QueueCommand, QueueName, QueueStatus } from '../model/queue.ts';
import type { Auth } from '../model/user.ts';
import { type MediaJob, queueMediaJobs } from '../storage/media-jobs.ts';
import { queueTranscodeJobs } from '../storage/transcode-jobs.ts';
import { cleanupMemories, generateMemories } from './memory.service.ts';
import { runQueueCommand } from './queue.service.ts';
import { recordRun } from './queue-runs.ts';
import { deleteEmptyTags } from './tag/cleanup.ts';

/**
 * POST /jobs (v3's createJob, the admin's manual jobs): the nightly tasks' clean-ups and memories
 * run now, in the request, as a run of the background tasks' queue. The others are a 400 naming
 * them: what this server does not have (people without faces are removed with their last face;
 * database backups, integrity reports), and `user-cleanup`, whose purge of deleted users may take
 * longer than a request: the nightly function runs it each night, bounded per invocation
 * (docs/data-model.md, "Nightly clean-up").
 */
export const createJob = async (name: string): Promise<void> => {
  const now = new Date();
  switch (name) {
    case 'tag-cleanup':
      await recordRun('backgroundTask', deleteEmptyTags);
      return;
    case 'memory-cleanup':
      await recordRun('backgroundTask', () => cleanupMemories(now));
      return;
    case 'memory-create':
      await recordRun('backgroundTask', () => generateMemories(now));
      return;
    default:
      throw new Invalid(`The ${name} job is not supported by this server`);
  }
};

/**
 * POST /assets/jobs and v1.100's POST /asset/jobs: `regenerate-thumbnail` hands the assets to the
 * media function again (their previews and thumbhash are made anew, a run of thumbnailGeneration
 * each), `refresh-metadata` reads their files' keywords again as tags and names their places again
 * (shared/services/media/metadata-refresh.service.ts; the rest of their metadata is read once, at upload), v3's `refresh-faces` detects their faces again (docs/faces.md); the
 * owner's assets only; `transcode-video` hands their videos to the transcode function, each decided
 * and encoded again under the settings as they are now (docs/media.md, "Transcoding").
 */
export const runAssetJobs = async (auth: Auth, assetIds: readonly string[], name: string): Promise<void> => {
  const job = assetJobs[name];
  if (!job && name !== 'transcode-video') throw new Invalid(`The ${name} job is not supported by this server`);
  const assets = await requireAssets(auth, Permission.AssetUpdate, assetIds);
  // Ten a media invocation (each well within its time limit), eight invocations at a time.
  const events: string[][] = [];
  for (let start = 0; start < assets.length; start += 10) events.push(assets.slice(start, start + 10).map((asset) => asset.id));
  if (job) await inBatches(events, 8, (ids) => queueMediaJobs(ids.map(job)));
  // `transcode-video`: the videos among them decided and encoded again (Immich's AssetEncodeVideo for each); a photo is no job.
  else
    await queueVideos(
      assets.flatMap((asset) => (asset.type === 'VIDEO' ? [asset.id] : [])),
      true,
    );
};

/**
 * Hands videos to the transcode function, one an invocation: one encode may take most of the
 * function's 15 minutes (docs/media.md, "Transcoding"), so none waits behind another in the same
 * invocation; sixteen invocations are handed on at a time (each a queued, asynchronous invoke).
 */
const queueVideos = (assetIds: readonly string[], force: boolean): Promise<void> =>
  inBatches(assetIds, 16, (assetId) => queueTranscodeJobs([{ kind: 'transcode', assetId, force }]));

const assetJobs: Record<string, (assetId: string) => MediaJob> = {
  'regenerate-thumbnail': (assetId) => ({ kind: 'asset-media', assetId }),
  'refresh-metadata': (assetId) => ({ kind: 'asset-places', assetId }),
  'refresh-faces': (assetId) => ({ kind: 'asset-faces', assetId, force: true }),
};

/**
 * Hands the media function every asset of every user, `perInvocation` to an invocation, eight
 * invocations at a time, from the folder index (its projection is small): each batch is retried
 * on its own (and kept in the media function's dead-letter queue if it keeps failing); starting
 * again redoes all, changing only what differs.
 */
const everyAsset = async (perInvocation: number, job: (assetId: string) => MediaJob): Promise<void> => {
  for (const user of await userRepo.list()) {
    const batches: string[][] = [];
    for (let after: string | undefined, page: { assetId: string; originalPath: string }[]; ; ) {
      page = await folderRepo.folderPage(user.id, after, 1000);
      for (let start = 0; start < page.length; start += perInvocation)
        batches.push(page.slice(start, start + perInvocation).map((entry) => entry.assetId));
      after = page.at(-1)?.originalPath;
      if (page.length < 1000) break;
    }
    await inBatches(batches, 8, (assetIds) => queueMediaJobs(assetIds.map(job)));
  }
};

/**
 * Hands the transcode function every video of every user (Immich's videoConversion queue
 * started): from the folder index, a video's by its original's type (the key keeps the uploaded
 * file's extension, a motion photo's video its container's), one to an invocation (`queueVideos`).
 * With `force` (Immich's "all") each is decided
 * again under the settings as they are now (encoded again, or its encoded version removed);
 * without it ("missing"), the function leaves hidden and trashed videos and those already encoded.
 */
const everyVideo = async (force: boolean): Promise<void> => {
  for (const user of await userRepo.list()) {
    const videos: string[] = [];
    for (let after: string | undefined, page: { assetId: string; originalPath: string }[]; ; ) {
      page = await folderRepo.folderPage(user.id, after, 1000);
      for (const entry of page) if (mimeTypeOf(entry.originalPath).startsWith('video/')) videos.push(entry.assetId);
      after = page.at(-1)?.originalPath;
      if (page.length < 1000) break;
    }
    await queueVideos(videos, force);
  }
};

/**
 * PUT /jobs/:name `start` (v1.100's sendJobCommand, v3's runQueueCommandLegacy): as a queue
 * command (shared/services/queue.service.ts). Starting metadataExtraction also hands the media
 * function every asset of every user, whose keywords it reads again as tags and whose places it
 * names again and puts on the map (docs/places.md), `force` or not (each asset is read again; only a change is written). Starting
 * faceDetection hands it every asset too, whose faces it detects where they were never looked
 * for, or with `force` (Immich's "all") again everywhere (docs/faces.md), 25 to an invocation;
 * starting facialRecognition, every asset whose faces still without a person it recognises again
 * (after the settings changed, say), 100 to an invocation; people already made are kept, `force`
 * or not (Immich's "all" would make them again: docs/faces.md). Starting videoConversion hands the
 * transcode function every video (`everyVideo`). Starting duplicateDetection hands the media
 * function every asset, 25 to an invocation, whose duplicates it detects where it never looked, or
 * with `force` ("all") again everywhere, dismissed groups found again (docs/immich-compatibility.md, "Duplicates").
 */
export const sendJobCommand = async (name: QueueName, command: QueueCommand, force = false): Promise<QueueStatus> => {
  const status = await runQueueCommand(name, command);
  if (name === 'metadataExtraction' && command === 'start') await everyAsset(100, (assetId) => ({ kind: 'asset-places', assetId }));
  if (name === 'faceDetection' && command === 'start') await everyAsset(25, (assetId) => ({ kind: 'asset-faces', assetId, force }));
  if (name === 'facialRecognition' && command === 'start')
    await everyAsset(100, (assetId) => ({ kind: 'asset-faces', assetId, force: false, recognize: true }));
  // Immich's "missing" embeds what has no embedding under the current model; "all" embeds every asset again (docs/search.md).
  if (name === 'smartSearch' && command === 'start') await everyAsset(25, (assetId) => ({ kind: 'asset-clip', assetId, force }));
  if (name === 'videoConversion' && command === 'start') await everyVideo(force);
  if (name === 'ocr' && command === 'start') await everyAsset(25, (assetId) => ({ kind: 'asset-ocr', assetId, force }));
  // Immich's duplicateDetection: every asset not looked at yet ("missing"), or all again (dismissals forgotten).
  if (name === 'duplicateDetection' && command === 'start')
    await everyAsset(25, (assetId) => ({ kind: 'asset-duplicates', assetId, force }));
  return status;
};
