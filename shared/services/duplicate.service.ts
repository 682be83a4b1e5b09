/**
 * Immich's duplicate routes (docs/immich-compatibility.md, "Duplicates"): GET /duplicates lists
 * the groups detection made (shared/services/duplicate-detection.service.ts), DELETE dismisses
 * them, and resolve merges a group into the asset kept and trashes the others. Groups are stored
 * as in shared/db/duplicate.repository.ts.
 */
import { allowedAssets } from '../access/asset-access.ts';
import { requireGroups } from '../access/duplicate-access.ts';
import { Permission } from '../access/permission.ts';
import { log } from '../core/log.ts';
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import type { DuplicateGroup } from '../db/duplicate.repository.ts';
import * as duplicateRepo from '../db/duplicate.repository.ts';
import * as tagRepo from '../db/tag.repository.ts';
import type { AssetEdit, AssetRecord } from '../model/asset.ts';
import type { DuplicateView, ResolveGroup, ResolveResult } from '../model/duplicate.ts';
import type { Auth } from '../model/user.ts';
import { addAssetsToAlbum } from './album/album.service.ts';
import { updateAsset } from './asset.service.ts';
import { readConfig } from './config.reader.ts';
import { addTagAssetsV3 } from './tag/tag.service.ts';
import { deleteAssets } from './trash.service.ts';

/** A little apart, so that changes racing for one group do not meet again at once. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));

/** Every member of a group taken out of it, a transaction at a time (shared/db/duplicate.repository.ts); a change meanwhile: read again. */
const dissolve = async (ownerId: string, duplicateId: string): Promise<void> => {
  for (let attempt = 0; attempt < 12; attempt++) {
    const outcome = await duplicateRepo.dissolvePart(ownerId, duplicateId);
    if (outcome === 'done') return;
    if (outcome === 'changed') await pause(attempt);
  }
  throw new Error(`The duplicate group ${duplicateId} kept changing`);
};

const liveMembers = async (group: DuplicateGroup): Promise<AssetRecord[]> =>
  (await assetRepo.getMany(group.assetIds))
    .filter((asset) => asset.duplicateId === group.id && asset.deletedAt === null && asset.stack === null)
    .sort((a, b) => a.localDateTime.localeCompare(b.localDateTime) || a.id.localeCompare(b.id));

/**
 * GET /duplicates: the caller's groups of more than one asset (one Query of their groups, then
 * their assets by key); a group left with one (its others trashed, stacked or deleted) is
 * dissolved first, as Immich clears such singletons.
 */
export const getDuplicates = async (auth: Auth): Promise<DuplicateView[]> => {
  const views: DuplicateView[] = [];
  for (const group of await duplicateRepo.listGroups(auth.user.id)) {
    const assets = await liveMembers(group);
    if (assets.length === 1) await dissolve(auth.user.id, group.id);
    if (assets.length > 1) views.push({ duplicateId: group.id, assets, tags: new Map() });
  }
  const tags = await tagRepo.listAssetsTags(
    auth.user.id,
    views.flatMap((view) => view.assets.map((asset) => asset.id)),
  );
  return views.map((view) => ({ ...view, tags }));
};

/** DELETE /duplicates/:id and DELETE /duplicates: the groups dismissed; their assets stay marked as looked at, so only an "all" run finds them again. */
export const dismissDuplicates = async (auth: Auth, ids: readonly string[]): Promise<void> => {
  for (const group of await requireGroups(auth, ids)) await dissolve(auth.user.id, group.id);
};

const uniqueLines = (values: readonly (string | null)[]): string[] => [
  ...new Set(values.flatMap((value) => (value ?? '').split(/\r?\n/).map((line) => line.trim())).filter((line) => line !== '')),
];

const sameValue = (values: readonly (number | null)[]): number | null => {
  const known = [...new Set(values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value)))];
  return known.length === 1 ? (known[0] ?? null) : null;
};

/** Immich's merge into the one asset kept: favourite if any was, the most restrictive visibility, the best rating, every description line, a position all agree on. */
const mergedEdit = (keeper: AssetRecord, assets: readonly AssetRecord[]): AssetEdit => {
  const edit: AssetEdit = { isFavorite: assets.some((asset) => asset.isFavorite) };
  const visibility = (['locked', 'archive', 'timeline'] as const).find((level) => assets.some((asset) => asset.visibility === level));
  if (visibility && visibility !== keeper.visibility) edit.visibility = visibility;
  const rating = Math.max(0, ...assets.map((asset) => asset.exif.rating ?? 0));
  if (rating > 0) edit.rating = rating;
  const lines = uniqueLines(assets.map((asset) => asset.exif.description));
  if (lines.length > 0) edit.description = lines.join('\n');
  const latitude = sameValue(assets.map((asset) => asset.exif.latitude));
  const longitude = sameValue(assets.map((asset) => asset.exif.longitude));
  if (latitude !== null && longitude !== null) Object.assign(edit, { latitude, longitude });
  return edit;
};

const resolveGroup = async (auth: Auth, request: ResolveGroup, trashEnabled: boolean): Promise<ResolveResult> => {
  const { duplicateId } = request;
  const group = await duplicateRepo.getGroup(auth.user.id, duplicateId);
  const assets = await liveMembers(group);
  if (assets.length === 0) return { id: duplicateId, success: false, error: 'not_found' };
  const inGroup = new Set(assets.map((asset) => asset.id));
  const keep = [...new Set(request.keepAssetIds.filter((id) => inGroup.has(id)))];
  const trash = [...new Set(request.trashAssetIds.filter((id) => inGroup.has(id)))];
  for (const id of inGroup) {
    if (keep.includes(id) && trash.includes(id))
      return {
        id: duplicateId,
        success: false,
        error: 'validation',
        errorMessage: 'An asset cannot be in both keepAssetIds and trashAssetIds',
      };
    if (!keep.includes(id) && !trash.includes(id))
      return {
        id: duplicateId,
        success: false,
        error: 'validation',
        errorMessage: 'Every asset must be in either keepAssetIds or trashAssetIds',
      };
  }
  if (trash.length > 0 && (await allowedAssets(auth, Permission.AssetDelete, trash)).length !== trash.length)
    return { id: duplicateId, success: false, error: 'no_permission', errorMessage: 'No permission to delete assets' };
  const [keeperId] = keep;
  const keeper = assets.find((asset) => asset.id === keeperId);
  if (keep.length === 1 && keeper && trash.length > 0) {
    // The albums and tags of every asset of the group, the keeper's own too (as Immich).
    const albumIds = new Set((await Promise.all(assets.map((asset) => albumRepo.listIdsOfAsset(asset.id)))).flat());
    for (const albumId of albumIds)
      await addAssetsToAlbum(auth, albumId, [keeper.id]).catch((error: unknown) =>
        log.info('Album not merged', { albumId, error: String(error) }),
      );
    const tags = await tagRepo.listAssetsTags(auth.user.id, [...inGroup]);
    const tagIds = new Set([...tags.values()].flat().map((tag) => tag.id));
    for (const tagId of tagIds)
      await addTagAssetsV3(auth, tagId, [keeper.id]).catch((error: unknown) => log.info('Tag not merged', { tagId, error: String(error) }));
    await updateAsset(auth, keeper.id, mergedEdit(keeper, assets));
  }
  await dissolve(auth.user.id, duplicateId);
  if (trash.length > 0) await deleteAssets(auth, trash, !trashEnabled);
  return { id: duplicateId, success: true };
};

/**
 * POST /duplicates/resolve: every group must be the caller's (else 400, nothing done); then each
 * group on its own, answered per group as Immich does (an error inside one is `unknown`).
 */
export const resolveDuplicates = async (auth: Auth, groups: readonly ResolveGroup[]): Promise<ResolveResult[]> => {
  await requireGroups(
    auth,
    groups.map((group) => group.duplicateId),
  );
  const { trash } = await readConfig();
  const results: ResolveResult[] = [];
  for (const group of groups) {
    try {
      results.push(await resolveGroup(auth, group, trash.enabled));
    } catch (error) {
      log.error('Resolving a duplicate group failed', { duplicateId: group.duplicateId, error: String(error) });
      results.push({ id: group.duplicateId, success: false, error: 'unknown' });
    }
  }
  return results;
};
