/**
 * The folders view (Immich v3's view service, Utilities → Folders in its web app): the caller's
 * own assets in the timeline (not archived, hidden, locked or trashed), by the folder of their
 * original (docs/immich-compatibility.md, "The folders view").
 */
import * as assetRepo from '../db/asset.repository.ts';
import * as folderRepo from '../db/folder.repository.ts';
import { fileNameOf, folderOf, isDirectlyIn, normalizeFolder } from '../domain/folders.ts';
import { type AssetRecord, inTimeline } from '../model/asset.ts';
import type { Auth } from '../model/user.ts';

/** GET /view/folder/unique-paths: the folders holding the caller's timeline assets, in order. */
export const getUniqueOriginalPaths = async (auth: Auth): Promise<string[]> => {
  const entries = await folderRepo.listEntries(auth.user.id);
  return [...new Set(entries.filter(inTimeline).map((entry) => folderOf(entry.originalPath)))].sort();
};

/**
 * GET /view/folder?path=: the caller's timeline assets directly in that folder, by file name. A
 * whole path (`upload/…`: every original's begins so) reads that folder's range of the index;
 * the end of one (Immich matches either) reads the caller's every entry.
 */
export const getAssetsByOriginalPath = async (auth: Auth, path: string): Promise<AssetRecord[]> => {
  const folder = normalizeFolder(path);
  const entries = await folderRepo.listEntries(auth.user.id, folder.startsWith('upload/') ? `${folder}/` : undefined);
  const inFolder = entries.filter((entry) => inTimeline(entry) && isDirectlyIn(entry.originalPath, folder));
  const assets = await assetRepo.getMany(inFolder.map((entry) => entry.assetId));
  // Read again, the index lagging its table: only what is still in the timeline and in the folder.
  return assets
    .filter((asset) => inTimeline(asset) && isDirectlyIn(asset.originalPath, folder))
    .sort((a, b) => fileNameOf(a.originalPath).localeCompare(fileNameOf(b.originalPath)));
};
