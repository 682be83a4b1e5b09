/**
 * A deleted user removed for good (Immich's UserDelete job): after `user.deleteDelay` days by the
 * nightly clean-up, or at the next hourly tick after a forced delete (`DELETE /admin/users/:id
 * {force: true}`), through one path (docs/data-model.md, "Nightly clean-up"). Immich's database
 * cascades one DELETE; here every part of the library is deleted as its own API deletes it, with
 * the records the other users' apps sync (album deletions, album users and entries leaving,
 * partner shares ending, and at last UserDeleteV1, from which the apps' own cascade drops the
 * user's assets, stacks and people they hold). Each step reads what is left, so a run stopped by
 * its budget is finished by the next; the user item goes last, so the user stays listed as
 * deleted until then.
 */
import { inBatches } from '../../core/concurrency.ts';
import { log } from '../../core/log.ts';
import * as activityRepo from '../../db/activity.repository.ts';
import * as albumRepo from '../../db/album.repository.ts';
import * as apiKeyRepo from '../../db/api-key.repository.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as memoryRepo from '../../db/memory.repository.ts';
import * as partnerRepo from '../../db/partner.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as sessionRepo from '../../db/session.repository.ts';
import * as sharedLinkRepo from '../../db/shared-link.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import * as tagRepo from '../../db/tag.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import * as workflowRepo from '../../db/workflow.repository.ts';
import type { UserRecord } from '../../model/user.ts';
import { raise } from '../../realtime/outbox.ts';
import { originalsStore } from '../../storage/originals.ts';
import { removeAlbum } from '../album/album.service.ts';
import { deleteStacksOf } from '../stack.service.ts';
import { deleteUnlessBusy } from '../trash.service.ts';
import { endSessionsOf } from '../upload/session-end.ts';
import type { WorkBudget } from '../work-budget.ts';

/** What a purge run did: `purged`, `unfinished` (its budget ran out: the next run goes on), or `kept` (restored meanwhile, or gone). */
export type PurgeOutcome = { kind: 'purged' | 'unfinished' | 'kept'; assets: number };

/**
 * Nothing can act as the user any more: their sessions (with their sync checkpoints), API keys and
 * open upload sessions end. The sessions are listed once (expired ones too), and those ended.
 */
const endCredentials = async (user: UserRecord): Promise<void> => {
  const [sessions, apiKeys] = await Promise.all([sessionRepo.listUserSessionHashes(user.id), apiKeyRepo.listApiKeys(user.id)]);
  await inBatches(sessions, 8, (tokenHash) => syncRepo.deleteCheckpoints(tokenHash));
  await sessionRepo.deleteMany(user.id, sessions);
  await inBatches(apiKeys, 8, (key) => apiKeyRepo.remove(user.id, key));
  await endSessionsOf(user);
};

/** Their shared links (and keys) go, then their own albums (as DELETE /album/:id: each user it was shared with loses it). */
const deleteSharing = async (userId: string): Promise<void> => {
  for (const link of await sharedLinkRepo.list(userId)) await sharedLinkRepo.remove(link, await sharedLinkRepo.listAssetIds(link.id));
  for (const album of await albumRepo.list(userId)) await removeAlbum(album);
};

/**
 * They leave the albums of others they were in: their likes and comments there go (Immich's rows
 * cascade), then their share, as DELETE /album/:id/user/:userId removes it (its other users get
 * AlbumUserDeleteV1). A change of the album meanwhile: read again.
 */
const leaveAlbums = async (userId: string): Promise<void> => {
  for (const share of await albumRepo.listSharesOf(userId)) {
    const activities = (await activityRepo.listAlbumActivities(share.albumId)).filter((activity) => activity.userId === userId);
    await inBatches(activities, 8, activityRepo.remove);
    for (let attempt = 0; attempt < 5; attempt++) {
      const album = await albumRepo.get(share.ownerId, share.albumId);
      if (!album?.sharedUserIds.includes(userId)) break;
      if ((await albumRepo.unshareAlbum(album, userId, new Date().toISOString())).ok) break;
    }
  }
};

/** Their partner shares, both ways, end (each recorded for both users, as DELETE /partner/:id). */
const endPartnerships = async (userId: string): Promise<void> => {
  const { sharedBy, sharingWith } = await partnerRepo.listPartnershipsOf(userId);
  await inBatches([...sharedBy, ...sharingWith], 8, (share) => partnerRepo.removeIfShared(share.sharedById, share.sharedWithId));
};

/**
 * Their assets, each deleted for good as DELETE /asset with `force` deletes it (files, faces,
 * album entries, memories, tags, stacks), a page of the timeline at a time, while the budget
 * lasts. One walk of the timeline: an asset busy meanwhile stays behind it, for the next run. How
 * many went, and whether none is left.
 */
const deleteLibrary = async (userId: string, budget: WorkBudget): Promise<{ assets: number; done: boolean }> => {
  let assets = 0;
  let busy = 0;
  if (budget.spent) return { assets, done: false };
  for await (const page of assetRepo.timelinePages(userId, { descending: false, pageSize: Math.min(100, budget.remaining) })) {
    const ids = page.slice(0, budget.remaining).map((asset) => asset.id);
    budget.take(ids.length);
    await budget.batch(() =>
      inBatches(ids, 8, async (assetId) => {
        // Its owner leaves its albums' entries' owners (docs/data-model.md, "Album summaries").
        const outcome = await deleteUnlessBusy(assetId, undefined, { ownerGone: true });
        if (outcome === 'deleted') assets++;
        else if (outcome === 'busy') busy++;
      }),
    );
    // Spent: the next page is the next run's (it reads the timeline again).
    if (budget.spent) return { assets, done: false };
  }
  return { assets, done: busy === 0 };
};

/** What the user owned besides their assets: stacks left, memories, people, tags, workflows, then what only pointed at them. */
const deleteRest = async (user: UserRecord): Promise<void> => {
  await deleteStacksOf(user.id);
  for (const memory of await memoryRepo.list(user.id)) await memoryRepo.remove(memory);
  await inBatches(await personRepo.list(user.id), 8, personRepo.remove);
  await tagRepo.deleteMany(await tagRepo.list(user.id));
  for (const workflow of await workflowRepo.list(user.id)) await workflowRepo.remove(user.id, workflow.id);
  await userRepo.deleteRemains(user.id);
  if (user.profileImagePath) await (await originalsStore()).delete([{ key: user.profileImagePath }]);
};

/**
 * Purges one deleted user, as far as the budget allows: `purged` once the user item itself is
 * gone, `unfinished` when the budget ran out first (the user stays `removing`, and the next run
 * goes on), `kept` when the user is no longer deleted (restored) or already gone.
 */
export const purgeUser = async (userId: string, budget: WorkBudget): Promise<PurgeOutcome> => {
  if (budget.spent) return { kind: 'unfinished', assets: 0 };
  const found = await userRepo.get(userId);
  if (!found || found.deletedAt === null) return { kind: 'kept', assets: 0 };
  // From here on they cannot be restored: the purge may leave them half-deleted until its next run.
  if (found.status !== 'removing' && !(await userRepo.beginPurge(userId)).ok) return { kind: 'kept', assets: 0 };
  const user: UserRecord = { ...found, status: 'removing' };
  // Their shares and credentials, their library a page at a time, then the rest and the user item:
  // each a batch of the run, its events told once it is done.
  await budget.batch(async () => {
    await endCredentials(user);
    await deleteSharing(user.id);
    await leaveAlbums(user.id);
    await endPartnerships(user.id);
  });
  const library = await deleteLibrary(user.id, budget);
  if (!library.done) return { kind: 'unfinished', assets: library.assets };
  const gone = await budget.batch(async () => {
    await deleteRest(user);
    if (!(await userRepo.deleteItem(user)).ok) return false;
    // Every app is told, as Immich's deletion job tells them (`on_user_delete`).
    raise({ kind: 'user-deleted', userId: user.id });
    return true;
  });
  if (!gone) return { kind: 'kept', assets: library.assets };
  log.info('user purged', { userId: user.id, assets: library.assets });
  return { kind: 'purged', assets: library.assets };
};
