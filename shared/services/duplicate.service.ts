/**
 * Immich's duplicate detection and its routes (docs/immich-compatibility.md, "Duplicates"): an
 * asset's neighbours — the owner's assets whose perceptual hashes are both within their thresholds
 * (shared/media/perceptual-hash.ts), and, when the owner has CLIP embeddings under the current
 * model, those within `maxDistance` among the nearest 64 — put in one group with it by Immich's
 * union rule; then GET /duplicates lists the groups, DELETE dismisses them, and resolve merges a
 * group into the asset kept and trashes the others. Groups are stored as in shared/db/duplicate.repository.ts.
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
import * as vectorIndexRepo from '../db/vector-index.repository.ts';
import { compareHashes, packHash, perceptualHash, unpackHash } from '../media/perceptual-hash.ts';
import type { AssetEdit, AssetRecord } from '../model/asset.ts';
import type { SystemConfig } from '../model/config.ts';
import type { DuplicateView, ResolveGroup, ResolveResult } from '../model/duplicate.ts';
import type { Auth } from '../model/user.ts';
import { addAssetsToAlbum } from './album/album.service.ts';
import { updateAsset } from './asset.service.ts';
import { readConfig } from './config.reader.ts';
import { addTagAssetsV3 } from './tag/tag.service.ts';
import { deleteAssets } from './trash.service.ts';

type MlSettings = SystemConfig['machineLearning'];

/** The model name perceptual hashes are stored under in the vector index. */
export const hashModel = 'phash-v1';

/** Immich's bound on the CLIP neighbours one detection considers. */
const clipNeighbours = 64;

/** A little apart, so that changes racing for one group do not meet again at once. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * (attempt + 1)));

/** The asset's preview hashed and its hash stored (replacing an earlier one); none for a flat image (shared/media/perceptual-hash.ts). */
export const recordHash = async (asset: Pick<AssetRecord, 'id' | 'ownerId'>, preview: Uint8Array): Promise<Uint8Array | undefined> => {
  const hash = await perceptualHash(preview);
  if (!hash) return undefined;
  const packed = packHash(hash);
  await vectorIndexRepo.appendVectors(asset.ownerId, 'phash', hashModel, [{ assetId: asset.id, vector: packed }]);
  return packed;
};

/** Immich's job skips these: in a stack, hidden, locked (and here trashed ones: nothing to show them in). */
const detectable = (asset: AssetRecord): boolean =>
  asset.stack === null && asset.deletedAt === null && (asset.visibility === 'timeline' || asset.visibility === 'archive');

/** A neighbour as Immich's search takes it: the same owner and type, not trashed, not stacked, listed, not itself. */
const neighbourOf =
  (asset: AssetRecord) =>
  (other: AssetRecord): boolean =>
    other.id !== asset.id && other.ownerId === asset.ownerId && other.type === asset.type && detectable(other);

const f32 = (bytes: Uint8Array): Float32Array => Float32Array.from(new Float16Array(bytes.slice().buffer));

const cosineDistance = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
};

/** The assets whose hashes are both within the thresholds of this one's. */
const hashMatches = async (asset: AssetRecord, own: Uint8Array | undefined): Promise<string[]> => {
  const mine = own && unpackHash(own);
  if (!mine) return [];
  const all = await vectorIndexRepo.loadVectors(asset.ownerId, 'phash', hashModel);
  return all.ids.filter((id, i) => {
    const other = unpackHash(all.vectors[i] ?? new Uint8Array());
    return id !== asset.id && other !== undefined && compareHashes(mine, other).duplicate;
  });
};

/**
 * Immich's search: the nearest 64 by cosine distance among the owner's embeddings under the
 * current model, those within `maxDistance`. None when the asset has no embedding under it.
 */
const clipMatches = async (asset: AssetRecord, ml: MlSettings): Promise<string[]> => {
  if (!ml.enabled || !ml.clip.enabled) return [];
  const own = await vectorIndexRepo.vectorOf(asset.ownerId, 'clip', ml.clip.modelName, asset.id);
  if (!own) return [];
  const mine = f32(own);
  const all = await vectorIndexRepo.loadVectors(asset.ownerId, 'clip', ml.clip.modelName);
  return all.ids
    .map((id, i) => ({ id, distance: id === asset.id ? 2 : cosineDistance(mine, f32(all.vectors[i] ?? new Uint8Array())) }))
    .filter(({ id }) => id !== asset.id)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, clipNeighbours)
    .filter(({ distance }) => distance <= ml.duplicateDetection.maxDistance)
    .map(({ id }) => id);
};

export type DetectionOutcome = 'made' | 'gone' | 'skipped';

/**
 * Immich's duplicate detection of one asset (its AssetDetectDuplicates job), its hash given or
 * read from the index: its neighbours found, then Immich's union rule — the group is its own
 * duplicateId, else a neighbour's, else a new one; every neighbour not in it and every member of
 * the neighbours' other groups join it — written as one transaction conditioned on every asset
 * and group as read; a concurrent change cancels it and the detection reads again.
 */
export const detectDuplicates = async (assetId: string, ml: MlSettings, hash?: Uint8Array): Promise<DetectionOutcome> => {
  for (let attempt = 0; attempt < 12; attempt++) {
    const asset = await assetRepo.get(assetId);
    if (!asset) return 'gone';
    if (!detectable(asset)) return 'skipped';
    const own = hash ?? (await vectorIndexRepo.vectorOf(asset.ownerId, 'phash', hashModel, asset.id));
    const candidates = [...new Set([...(await hashMatches(asset, own)), ...(await clipMatches(asset, ml))])];
    const neighbours = (await assetRepo.getMany(candidates, { consistent: true })).filter(neighbourOf(asset));
    const now = new Date().toISOString();
    const outcome =
      neighbours.length === 0 ? await duplicateRepo.leaveGroup(asset, now) : await duplicateRepo.joinGroup(asset, neighbours, now);
    if (outcome === 'done') return 'made';
    // Another detection or a dismissal changed these assets or groups meanwhile: read them again.
    if (outcome === 'changed') await pause(attempt);
  }
  throw new Error(`Duplicate detection of asset ${assetId} kept meeting concurrent changes`);
};

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
