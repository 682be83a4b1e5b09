import { allowedAssets } from '../../access/asset-access.ts';
import { accessLost, Permission } from '../../access/permission.ts';
import { requireTag } from '../../access/tag-access.ts';
import { Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import type { TagRefusal } from '../../db/tag.repository.ts';
import * as tagRepo from '../../db/tag.repository.ts';
import { addOutcomes, removeOutcomes } from '../../domain/bulk-ids.ts';
import type { BulkIdResult } from '../../model/album.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { AssetIdResult } from '../../model/shared-link.ts';
import { isAtOrBelow, type TagRecord, type TagType, tagPath, tagPathProblem } from '../../model/tag.ts';
import type { Auth } from '../../model/user.ts';
import { newTag, tagsOfPaths, upsertTagPaths } from './upsert.ts';

/**
 * Tags, one model for both generations (docs/immich-compatibility.md, "Tags"): v3's hierarchical
 * `/tags` (Immich v3's `TagService`) and v1.100's flat `/tag` (its `TagService`), a v1.100 name
 * being a v3 value (the full path).
 */

/** Stores a new tag; 400 when the owner has its value already (made meanwhile by another request). */
const store = async (tag: TagRecord): Promise<TagRecord> => {
  if (!(await tagRepo.create(tag)).ok) throw new Invalid('A tag with that name already exists');
  return tag;
};

/** v1.100's answer to a rename refused. */
const refusalMessages: Readonly<Record<TagRefusal, string>> = {
  taken: 'A tag with that name already exists',
  gone: 'Tag not found',
};

/** A path's parts, checked against the limits of a tag's path (400 past one): docs/immich-compatibility.md, "Tags". */
const checkedPath = (parts: readonly string[]): string => {
  const problem = tagPathProblem(parts);
  if (problem) throw new Invalid(problem);
  return parts.join('/');
};

/**
 * Tags one PUT /tags may make or read (each level of each path counting): its work stays a few
 * dozen round trips (docs/data-model.md, pattern 70); Immich has no such bound.
 */
const maxUpsertTags = 2_000;

/** v1.100's answer for a tag that is missing or someone else's. */
const v1Tag = async (auth: Auth, tagId: string): Promise<TagRecord> => {
  const tag = await tagRepo.get(auth.user.id, tagId);
  if (!tag) throw new Invalid('Tag not found');
  return tag;
};

/** The tag and every tag below it (their values begin with its path). */
const withDescendants = async (tag: TagRecord): Promise<TagRecord[]> =>
  (await tagRepo.list(tag.ownerId)).filter((each) => isAtOrBelow(each, tag));

/** GET /tags, GET /tag: the caller's tags, by value. */
export const getAllTags = async (auth: Auth): Promise<TagRecord[]> =>
  (await tagRepo.list(auth.user.id)).sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

/** GET /tags/:id. */
export const getTagV3 = (auth: Auth, tagId: string): Promise<TagRecord> => requireTag(auth, Permission.TagRead, tagId);

/** GET /tag/:id. */
export const getTagV1 = (auth: Auth, tagId: string): Promise<TagRecord> => v1Tag(auth, tagId);

/** POST /tags: a tag under `parentId` (its path is the parent's and the name), unique per owner. */
export const createTagV3 = async (
  auth: Auth,
  dto: { name: string; parentId?: string | null; color?: string | null },
): Promise<TagRecord> => {
  // Immich takes any name as it is; here a name is one level of a path, within the limits.
  if (dto.name.trim() === '') throw new Invalid('A tag name must not be empty');
  if (dto.name.includes('/')) throw new Invalid('A tag name must not contain /');
  checkedPath([dto.name]);
  const parent = dto.parentId ? await requireTag(auth, Permission.TagRead, dto.parentId) : undefined;
  const value = checkedPath([...(parent ? tagPath(parent.value) : []), dto.name]);
  if (await tagRepo.getByValue(auth.user.id, value)) throw new Invalid('A tag with that name already exists');
  return store(newTag(auth.user.id, value, { parentId: parent?.id ?? null, color: dto.color ?? null }));
};

/** POST /tag: v1.100's flat tag; a name with `/` is a path, whose parents are made as v3's upsert makes them. */
export const createTagV1 = async (auth: Auth, dto: { name: string; type: TagType }): Promise<TagRecord> => {
  // Its empty levels dropped, as v3's upsert drops them (`a//b/` is `a/b`).
  const parts = tagPath(dto.name);
  const name = checkedPath(parts);
  if (await tagRepo.getByValue(auth.user.id, name)) throw new Invalid('A tag with that name already exists');
  const [parent] = parts.length > 1 ? await upsertTagPaths(auth.user.id, [parts.slice(0, -1).join('/')]) : [];
  return store(newTag(auth.user.id, name, { parentId: parent?.id ?? null, type: dto.type }));
};

/**
 * PUT /tags: every path's tags, made where missing; the leaves. An empty path makes nothing (as
 * Immich's); one past a limit refuses the request before anything is written.
 */
export const upsertTags = (auth: Auth, paths: readonly string[]): Promise<TagRecord[]> => {
  for (const path of paths) {
    const parts = tagPath(path);
    if (parts.length > 0) checkedPath(parts);
  }
  if (tagsOfPaths(paths) > maxUpsertTags) throw new Invalid(`At most ${maxUpsertTags} tags (each level counting) in one request`);
  return upsertTagPaths(auth.user.id, paths);
};

/** PUT /tags/:id: its color (null clears it). */
export const updateTagV3 = async (auth: Auth, tagId: string, dto: { color?: string | null | undefined }): Promise<TagRecord> => {
  const tag = await requireTag(auth, Permission.TagUpdate, tagId);
  const written = await tagRepo.update(tag, {
    ...(dto.color !== undefined ? { color: dto.color } : {}),
    updatedAt: new Date().toISOString(),
  });
  if (!written.ok) throw accessLost(Permission.TagUpdate);
  return written.value;
};

/** PATCH /tag/:id: a new name (value); the tags below it move with it, all in one transaction. */
export const updateTagV1 = async (auth: Auth, tagId: string, dto: { name?: string | undefined }): Promise<TagRecord> => {
  const tag = await v1Tag(auth, tagId);
  if (dto.name === undefined) return tag;
  const name = checkedPath(tagPath(dto.name));
  if (name === tag.value) return tag;
  // The paths as they are now (a concurrent rename may have moved them since the tag was read).
  const all = await tagRepo.list(tag.ownerId);
  const current = all.find((each) => each.id === tag.id);
  if (!current) throw new Invalid('Tag not found');
  if (current.value === name) return current;
  const updatedAt = new Date().toISOString();
  const renames = all
    .filter((each) => isAtOrBelow(each, current))
    .map((each) => ({ tag: each, value: each.id === current.id ? name : `${name}${each.value.slice(current.value.length)}`, updatedAt }));
  // The tags below move too: each new path within the limits.
  for (const rename of renames) checkedPath(tagPath(rename.value));
  // A transaction holds 100 writes, three a tag.
  if (renames.length > 33) throw new Invalid('A tag with more than 32 tags below it cannot be renamed');
  const renamed = await tagRepo.renameTags(renames);
  if (!renamed.ok) throw new Invalid(refusalMessages[renamed.reason]);
  return { ...current, value: name, updatedAt };
};

/** DELETE /tags/:id, DELETE /tag/:id: the tag and every tag below it (Immich's cascade), untagging their assets. */
export const deleteTagV3 = async (auth: Auth, tagId: string): Promise<void> => {
  await tagRepo.deleteMany(await withDescendants(await requireTag(auth, Permission.TagDelete, tagId)));
};

export const deleteTagV1 = async (auth: Auth, tagId: string): Promise<void> => {
  await tagRepo.deleteMany(await withDescendants(await v1Tag(auth, tagId)));
};

/** Adds the allowed assets (the caller's and partners', Immich's `asset.share`) to a tag: `addOutcomes`' answers. */
const addAll = async (tag: TagRecord, auth: Auth, assetIds: readonly string[], onGone: () => Error): Promise<BulkIdResult[]> => {
  const present = await tagRepo.tagAssetsAmong(tag.id, assetIds);
  const candidates = [...new Set(assetIds.filter((id) => !present.has(id)))];
  const allowed = new Set((await allowedAssets(auth, Permission.AssetShare, candidates)).map((asset) => asset.id));
  const { results, changed } = addOutcomes(assetIds, present, allowed);
  if (changed.length > 0 && !(await tagRepo.addAssets(tag, changed)).ok) throw onGone();
  return results;
};

const removeAll = async (tag: TagRecord, assetIds: readonly string[]): Promise<BulkIdResult[]> => {
  const { results, changed } = removeOutcomes(assetIds, await tagRepo.tagAssetsAmong(tag.id, assetIds));
  if (changed.length > 0) await tagRepo.removeAssets(tag.id, changed);
  return results;
};

/** PUT /tags/:id/assets. */
export const addTagAssetsV3 = async (auth: Auth, tagId: string, assetIds: readonly string[]): Promise<BulkIdResult[]> =>
  addAll(await requireTag(auth, Permission.TagAsset, tagId), auth, assetIds, () => accessLost(Permission.TagAsset));

/** DELETE /tags/:id/assets: the owner may untag any asset of their tag. */
export const removeTagAssetsV3 = async (auth: Auth, tagId: string, assetIds: readonly string[]): Promise<BulkIdResult[]> =>
  removeAll(await requireTag(auth, Permission.TagAsset, tagId), assetIds);

const v1Results = (results: BulkIdResult[]): AssetIdResult[] =>
  results.map(({ id, success, error }) => ({
    assetId: id,
    success,
    ...(error && error !== 'unknown' ? { error } : {}),
  }));

/** PUT /tag/:id/assets (v1.100's `AssetIdsResponseDto`). */
export const addTagAssetsV1 = async (auth: Auth, tagId: string, assetIds: readonly string[]): Promise<AssetIdResult[]> =>
  v1Results(await addAll(await v1Tag(auth, tagId), auth, assetIds, () => new Invalid('Tag not found')));

/** DELETE /tag/:id/assets. */
export const removeTagAssetsV1 = async (auth: Auth, tagId: string, assetIds: readonly string[]): Promise<AssetIdResult[]> =>
  v1Results(await removeAll(await v1Tag(auth, tagId), assetIds));

/** PUT /tags/assets: every allowed asset (the caller's) gets every allowed tag (the caller's); how many new tag-asset pairs. */
export const bulkTagAssets = async (auth: Auth, dto: { tagIds: string[]; assetIds: string[] }): Promise<{ count: number }> => {
  const [tags, assets] = await Promise.all([
    tagRepo.getMany(auth.user.id, dto.tagIds),
    allowedAssets(auth, Permission.AssetUpdate, [...new Set(dto.assetIds)]),
  ]);
  let count = 0;
  for (const tag of tags) {
    const present = await tagRepo.tagAssetsAmong(
      tag.id,
      assets.map((asset) => asset.id),
    );
    const added = assets.map((asset) => asset.id).filter((id) => !present.has(id));
    // A tag deleted meanwhile tags nothing.
    if (added.length > 0 && (await tagRepo.addAssets(tag, added)).ok) count += added.length;
  }
  return { count };
};

/**
 * GET /tag/:id/assets: the tag's assets, neither trashed nor locked, newest first. A locked asset is
 * never listed here, whatever the session (Immich v3 shows the locked folder only in its own view;
 * docs/immich-compatibility.md, "Tags").
 */
export const getTagAssetsV1 = async (auth: Auth, tagId: string): Promise<AssetRecord[]> => {
  const tag = await v1Tag(auth, tagId);
  return (await assetRepo.getMany(await tagRepo.listAssetIds(tag.id)))
    .filter((asset) => asset.deletedAt === null && asset.visibility !== 'locked')
    .sort((a, b) => b.fileCreatedAt.localeCompare(a.fileCreatedAt) || a.id.localeCompare(b.id));
};
