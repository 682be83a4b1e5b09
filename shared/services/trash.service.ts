import { requireAssets } from '../access/asset-access.ts';
import { isElevated } from '../access/elevation.ts';
import { Permission } from '../access/permission.ts';
import { inBatches } from '../core/concurrency.ts';
import { Conflict } from '../core/errors.ts';
import { log } from '../core/log.ts';
import type { TrashEntry } from '../db/asset.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as assetMetadataRepo from '../db/asset-metadata.repository.ts';
import * as memoryRepo from '../db/memory.repository.ts';
import * as ocrRepo from '../db/ocr.repository.ts';
import { done, doneWith, type Outcome } from '../db/outcome.ts';
import * as personRepo from '../db/person.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import * as termRepo from '../db/term.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import { editedKeys, encodedVideoKey } from '../domain/media-files.ts';
import { assetTerms } from '../domain/terms.ts';
import type { AssetRecord, FaceRecord } from '../model/asset.ts';
import { localPeriodRange, periodOfAsset } from '../model/time-bucket.ts';
import type { Auth } from '../model/user.ts';
import { raise } from '../realtime/outbox.ts';
import { originalsStore, type StoredObject } from '../storage/originals.ts';
import { leaveStackForGood } from './stack.service.ts';
import type { WorkBudget } from './work-budget.ts';

/**
 * What an asset's upload stored: its original and sidecar, each at the exact version it was
 * written as when the bucket recorded one. Deleting an exact version removes it for good; an
 * asset without one (the local store, older uploads) gets a delete marker, and the bucket's
 * lifecycle rule expires the hidden version a day later.
 */
const storedObjectsOf = (asset: AssetRecord): StoredObject[] => [
  { key: asset.originalPath, ...(asset.originalVersion ? { version: asset.originalVersion } : {}) },
  ...(asset.sidecarPath ? [{ key: asset.sidecarPath, ...(asset.sidecarVersion ? { version: asset.sidecarVersion } : {}) }] : []),
  // Its previews (rewritten in place by a repeated generation, so any versions they left expire by the lifecycle rule).
  ...[asset.resizePath, asset.webpPath].flatMap((key) => (key ? [{ key }] : [])),
  // And its edited files, recorded or not yet (a job for edits may still be making them: their keys are fixed).
  ...(asset.edits.length > 0 || asset.editedPreviewPath ? Object.values(editedKeys(asset)).map((key) => ({ key })) : []),
  // And a video's encoded version, recorded or not yet (the transcode function may be making it: its key is fixed).
  ...(asset.type === 'VIDEO' ? [{ key: asset.encodedVideoPath ?? encodedVideoKey(asset) }] : []),
];

/**
 * DELETE /asset: every id must be the caller's (else 400 and nothing changes). Without `force`
 * the assets move to the trash (and out of person assets, albums and shared links); with it they
 * are deleted for good, originals included.
 */
export const deleteAssets = async (auth: Auth, ids: readonly string[], force: boolean): Promise<void> => {
  const assets = await requireAssets(auth, Permission.AssetDelete, ids);
  const now = new Date().toISOString();
  // Immich tells the user's apps of a trash by the ids asked for (a deletion for good, asset by asset, below).
  if (!force && assets.length > 0) raise({ kind: 'assets-trashed', userId: auth.user.id, assetIds: assets.map((asset) => asset.id) });
  for (const asset of assets) {
    if (force) {
      await deleteAssetForGood(asset.id);
      continue;
    }
    // The asset as stored now; one deleted meanwhile by a concurrent request is done already.
    const current = await assetRepo.getWithFaces(asset.id);
    if (!current) continue;
    await assetRepo.withFreshAsset(current, async (found) =>
      found.asset.deletedAt === null ? assetRepo.update(found.asset, found.faces, { deletedAt: now }) : done(),
    );
  }
};

/**
 * Deletes one asset for good, as DELETE /asset with `force` does (and the nightly clean-up of the
 * trash and of deleted users: shared/services/nightly-tasks.service.ts), with a motion photo's
 * hidden video, which Immich deletes with it. With `still`, only while the asset as stored now
 * passes it (a concurrent restore cancels the deletion, and the asset read again no longer
 * passes). `ownerGone`: its owner is being purged (shared/services/user/purge.service.ts). Whether it was deleted (false: gone already, or no longer passing).
 */
export const deleteAssetForGood = async (
  assetId: string,
  still?: (asset: AssetRecord) => boolean,
  options: { ownerGone?: boolean } = {},
): Promise<boolean> => {
  const current = await assetRepo.getWithFaces(assetId);
  if (!current) return false;
  const deleted = await assetRepo.withFreshAsset(current, async (found) => {
    if (still && !still(found.asset)) return doneWith(false);
    const removed = await deleteForGood(found, options);
    if (!removed.ok) return removed;
    const motion = found.asset.livePhotoVideoId ? await assetRepo.getWithFaces(found.asset.livePhotoVideoId) : undefined;
    if (motion && motion.asset.ownerId === found.asset.ownerId)
      await assetRepo.withFreshAsset(motion, (fresh) => deleteForGood(fresh, options));
    return doneWith(true);
  });
  return deleted === true;
};

/**
 * One asset of a nightly clean-up deleted for good (`deleteAssetForGood`): `deleted`, `kept` (gone
 * already, or no longer passing `still`), or `busy`: changed by concurrent requests at every
 * attempt (a 409 to an API caller). A busy asset is logged and left for the next run, so one asset
 * in use never stops the night's clean-up (docs/data-model.md, "Nightly clean-up").
 */
export const deleteUnlessBusy = async (
  assetId: string,
  still?: (asset: AssetRecord) => boolean,
  options: { ownerGone?: boolean } = {},
): Promise<'deleted' | 'kept' | 'busy'> => {
  try {
    return (await deleteAssetForGood(assetId, still, options)) ? 'deleted' : 'kept';
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    log.warn('An asset changed at every attempt to delete it; left for the next run', { assetId });
    return 'busy';
  }
};

/** Deletes an asset, its faces, postings and stored files for good; `changed` when it changed meanwhile (read it again). */
const deleteForGood = async (
  found: { asset: AssetRecord; faces: FaceRecord[] },
  options: { ownerGone?: boolean } = {},
): Promise<Outcome<'changed'>> => {
  const names = (await personRepo.getMany(found.asset.ownerId, found.asset.personIds)).map((person) => person.name);
  const deleted = await assetRepo.remove(found.asset, found.faces, options);
  if (!deleted.ok) return deleted;
  // Its places in memories and tags and its metadata go with it (Immich's rows cascade; the apps
  // drop them with the asset), and it leaves its stack.
  await Promise.all([
    memoryRepo.deleteAssetMemberships(found.asset.id),
    tagRepo.deleteAssetTagEntries(found.asset.id),
    leaveStackForGood(found.asset),
    assetRepo.dropPhotoEdits(found.asset),
    assetMetadataRepo.dropAssetMetadata(found.asset.id),
    ocrRepo.dropAssetOcr(found.asset),
  ]);
  // Its search postings too (they would only cost reads: docs/data-model.md, "Search").
  await termRepo.deletePostings(found.asset.ownerId, termRepo.postingsOf(found.asset, assetTerms(found.asset, names)));
  await (await originalsStore()).delete(storedObjectsOf(found.asset));
  // As Immich's asset deletion job tells its owner's apps, one event an asset.
  raise({ kind: 'asset-deleted', ownerId: found.asset.ownerId, assetId: found.asset.id });
  return done();
};

/**
 * POST /trash/restore/assets: the caller's trashed assets come back (to people, albums, links and
 * search); how many did. The caller's apps are told of the ids, as Immich tells them.
 */
export const restoreAssets = async (auth: Auth, ids: readonly string[]): Promise<number> => {
  const restored = await restoreEach(auth, ids);
  if (ids.length > 0) raise({ kind: 'assets-restored', userId: auth.user.id, assetIds: [...ids] });
  return restored;
};

/** Restores those of the ids that are trashed; how many were. */
const restoreEach = async (auth: Auth, ids: readonly string[]): Promise<number> => {
  const assets = await requireAssets(auth, Permission.AssetRestore, ids);
  let restored = 0;
  for (const asset of assets) {
    const current = await assetRepo.getWithFaces(asset.id);
    if (!current) continue;
    await assetRepo.withFreshAsset(current, async (found) => {
      if (found.asset.deletedAt === null) return done();
      const written = await assetRepo.update(found.asset, found.faces, { deletedAt: null });
      if (written.ok) restored++;
      return written;
    });
  }
  return restored;
};

/**
 * An owner's trashed assets: the months the timeline counters say hold trash, each read as a key
 * range of the timeline (never the whole library).
 */
const trashedAssets = async (ownerId: string): Promise<AssetRecord[]> => {
  const months = [
    ...new Set(
      (await timelineRepo.listCounters(ownerId))
        .filter((counter) => counter.size === 'MONTH' && counter.state.isTrashed)
        .map((c) => c.period),
    ),
  ];
  const found: AssetRecord[] = [];
  for (const month of months) {
    const { from, to } = localPeriodRange(month, 'MONTH');
    const assets = await assetRepo.assetsTakenBetween(ownerId, from, to);
    found.push(...assets.filter((asset) => asset.deletedAt !== null && periodOfAsset(asset.localDateTime, 'MONTH') === month));
  }
  return found;
};

/**
 * Immich's nightly AssetDeleteCheck for one owner: every asset in their trash since `cutoff` or
 * before is deleted for good, longest there first, as DELETE /asset with `force` deletes it, while
 * the budget lasts (what is left, and an asset busy meanwhile, waits for the next run), a page of
 * entries a batch. Their earlier trash is given its entries once first, unless the owner as listed
 * says it has them (`trashIndexed`: "Earlier shapes"). How many went, and whether none is left.
 */
export const deleteExpiredTrash = async (
  owner: { id: string; trashIndexed: boolean },
  cutoff: string,
  budget: WorkBudget,
): Promise<{ removed: number; done: boolean }> => {
  const ownerId = owner.id;
  if (!owner.trashIndexed) {
    await inBatches(await trashedAssets(ownerId), 8, assetRepo.addTrashEntry);
    await assetRepo.markTrashIndexed(ownerId);
  }
  let removed = 0;
  let busy = 0;
  // The last entry read: the next Query starts after it, past the entries of busy assets left in place.
  let after: TrashEntry | undefined;
  for (;;) {
    if (budget.spent) return { removed, done: false };
    const expired = await assetRepo.listTrashedBefore(ownerId, cutoff, Math.min(100, budget.remaining), after);
    if (expired.length === 0) return { removed, done: busy === 0 };
    budget.take(expired.length);
    after = expired.at(-1);
    await budget.batch(() =>
      inBatches(expired, 8, async ({ assetId, deletedAt }) => {
        // Restored meanwhile (or trashed again later): it stays.
        const outcome = await deleteUnlessBusy(assetId, (asset) => asset.deletedAt !== null && asset.deletedAt <= cutoff);
        if (outcome === 'deleted') removed++;
        else if (outcome === 'busy') busy++;
        // An entry whose asset is no longer in the trash since then is none (its write raced an earlier shape's).
        else await assetRepo.dropTrashEntry(ownerId, assetId, deletedAt);
      }),
    );
  }
};

/**
 * Whether the whole-trash routes reach this trashed asset of the caller's: a locked one only from a
 * session unlocked with the PIN code (as DELETE /assets and POST /trash/restore/assets reach it).
 * Elsewhere it stays in the trash, untouched, and the rest is done: all or nothing per asset, never
 * a 400 after part of the trash went (docs/immich-compatibility.md, "The locked folder").
 */
const reachableInTrash =
  (auth: Auth) =>
  (asset: AssetRecord): boolean =>
    asset.ownerId === auth.user.id && asset.deletedAt !== null && (asset.visibility !== 'locked' || isElevated(auth));

/**
 * POST /trash/empty: every asset in the caller's trash is deleted for good (originals, faces,
 * entries), as DELETE /asset with force, but a locked one from a session not unlocked (it stays
 * in the trash); how many were deleted (v3's answer). An asset restored or moved into the locked
 * folder meanwhile stays.
 */
export const emptyTrash = async (auth: Auth): Promise<number> => {
  const reachable = reachableInTrash(auth);
  const assets = (await trashedAssets(auth.user.id)).filter(reachable);
  let deleted = 0;
  await inBatches(assets, 8, async (asset) => {
    if (await deleteAssetForGood(asset.id, reachable)) deleted++;
  });
  return deleted;
};

/** POST /trash/restore: everything in the caller's trash comes back, but a locked asset from a session not unlocked (it stays); how many did. */
export const restoreTrash = async (auth: Auth): Promise<number> => {
  const assets = (await trashedAssets(auth.user.id)).filter(reachableInTrash(auth));
  let restored = 0;
  await inBatches(assets, 8, async (asset) => {
    // Awaited first: `restored += await …` would read `restored` before the other batches add to it.
    // Immich tells no app of a restore of the whole trash.
    const count = await restoreEach(auth, [asset.id]);
    restored += count;
  });
  return restored;
};
