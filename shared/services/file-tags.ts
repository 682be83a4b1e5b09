/**
 * A file's keywords (shared/media/keywords.ts) as the owner's tags on its asset, as Immich v3's
 * metadata job applies them (`applyTagList`): each path's tags made where missing with their
 * parents (shared/services/tag/upsert.ts), the leaf of each put on the asset. Done at upload,
 * before the asset is recorded (a failed upload takes them off again), and again by the
 * metadata refresh (`refresh-metadata`, the metadataExtraction queue). Tags given in the app
 * stay: Immich replaces an asset's tags with the file's, having written the app's into the
 * sidecar first; no sidecar is written here (docs/immich-compatibility.md, "Tags").
 */
import * as tagRepo from '../db/tag.repository.ts';
import { isTagPath } from '../model/tag.ts';
import { upsertTagPaths } from './tag/upsert.ts';

/**
 * Puts the tags of these keyword paths on the asset (those within a tag path's limits,
 * shared/model/tag.ts); the ids of the tags put. A tag deleted
 * between its making and its use is made again (twice at most). Each tag id is added to
 * `attempted` before its entry is written, so an upload that fails can take off all it wrote
 * (`removeFileTags`), whatever failed.
 */
export const putFileTags = async (
  ownerId: string,
  assetId: string,
  keywords: readonly string[],
  attempted = new Set<string>(),
): Promise<string[]> => {
  // A keyword past a tag path's limits (deeper than 20 levels, a level longer than 255 characters) is left out, never the upload.
  const paths = keywords.filter(isTagPath);
  if (paths.length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    const tagIds = (await upsertTagPaths(ownerId, paths)).map((tag) => tag.id);
    for (const id of tagIds) attempted.add(id);
    if ((await tagRepo.addAssetTags(ownerId, assetId, tagIds)).ok) return tagIds;
    if (attempt >= 3) throw new Error(`The tags of asset ${assetId} kept being deleted while they were put on it`);
  }
};

/** Takes the tags `putFileTags` put on an asset off it again, when the asset was not recorded after all. */
export const removeFileTags = async (assetId: string, attempted: ReadonlySet<string>): Promise<void> => {
  if (attempted.size > 0) await tagRepo.removeAssetTags(assetId, [...attempted]);
};
