import { Permission, requireAssets } from '../access/access.ts';
import { inBatches } from '../core/concurrency.ts';
import { Invalid } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';
import { queueMediaJobs } from '../storage/media-jobs.ts';
import { cleanupMemories, generateMemories } from './memory.service.ts';
import { recordRun } from './queue-runs.ts';
import { deleteEmptyTags } from './tag-cleanup.ts';

/**
 * POST /jobs (v3's createJob, the admin's manual jobs): the nightly tasks' clean-ups and memories
 * run now, in the request, as a run of the background tasks' queue. Jobs of what this server does
 * not have (people without faces are removed with their last face; no user deletion job, database
 * backups, integrity reports) are a 400 naming them.
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
 * each); the owner's assets only. Metadata is read once, at upload, and nothing is transcoded or
 * detected here: those jobs are a 400 naming them.
 */
export const runAssetJobs = async (auth: Auth, assetIds: readonly string[], name: string): Promise<void> => {
  if (name !== 'regenerate-thumbnail') throw new Invalid(`The ${name} job is not supported by this server`);
  const assets = await requireAssets(auth, Permission.AssetUpdate, assetIds);
  // Ten a media invocation (each well within its time limit), eight invocations at a time.
  const events: string[][] = [];
  for (let start = 0; start < assets.length; start += 10) events.push(assets.slice(start, start + 10).map((asset) => asset.id));
  await inBatches(events, 8, (ids) => queueMediaJobs(ids.map((assetId) => ({ kind: 'asset-media', assetId }))));
};
