import type { AssetVisibility } from '../model/asset.ts';
import { legacyVisibility } from './items/legacy.ts';
import { assetIdOfPk } from './keys.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';

/** An asset as the folder index holds it: where its original is and where it shows. */
export interface FolderEntry {
  assetId: string;
  originalPath: string;
  visibility: AssetVisibility;
  deletedAt: string | null;
}

/**
 * An owner's assets by original path (the folder index, docs/data-model.md pattern 77), those
 * whose path begins with `prefix` if given, in path order: only the index's projection is read.
 */
export const listEntries = async (ownerId: string, prefix?: string): Promise<FolderEntry[]> => {
  const entries: FolderEntry[] = [];
  const attributes = ['pk', 'originalPath', 'visibility', 'deletedAt', 'isVisible', 'isArchived'];
  for await (const page of queryPages(partitions.folder(ownerId, prefix), { attributes }))
    for (const item of page)
      entries.push({
        assetId: assetIdOfPk(item.pk),
        originalPath: String(item.originalPath),
        visibility: (item.visibility as AssetVisibility | undefined) ?? legacyVisibility(item),
        deletedAt: typeof item.deletedAt === 'string' ? item.deletedAt : null,
      });
  return entries;
};

/**
 * Up to `limit` of an owner's assets after the original path `after` (or from the first), in
 * path order: one Query of the folder index (a library's walk, resumable at the last path).
 */
export const folderPage = async (
  ownerId: string,
  after: string | undefined,
  limit: number,
): Promise<{ assetId: string; originalPath: string }[]> => {
  const range = after === undefined ? {} : { from: `${after}\u0000` };
  for await (const page of queryPages(partitions.folder(ownerId), { pageSize: limit, attributes: ['pk', 'originalPath'], ...range }))
    return page.map((item) => ({ assetId: assetIdOfPk(item.pk), originalPath: String(item.originalPath) }));
  return [];
};
