/**
 * An asset leaving every album it is in, when it moves into the locked folder (Immich's
 * `removeAssetsFromAll`). Apart from album.repository.ts, and without the album codecs, so that
 * the asset-edit functions that may need it do not load the album model at a cold start
 * (docs/benchmarks.md): the items are read raw, by the few attributes used.
 */
import * as albumSyncRepo from './album-sync.repository.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { markAlbum } from './items/album-mark.ts';
import * as assetWrites from './items/asset-writes.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import { deleteWrite, isCancelled, transact, updateWrite } from './transact.ts';

/**
 * Takes the asset out of every album it is in: per album one transaction of the entry's delete
 * (it must exist: one a concurrent request removed first is left alone), the asset's album count
 * and the removal's record for the album's users' sync. Returns the albums it left.
 */
export const leaveAllAlbums = async (assetId: string, ownerId: string): Promise<string[]> => {
  const left: string[] = [];
  for (const item of await queryAll(partitions.assetAlbums(assetId), { attributes: ['albumId'] })) {
    const albumId = String(item.albumId);
    try {
      const writes = [
        deleteWrite(keys.albumAsset(albumId, assetId), { condition: 'present', sync: 'recorded' }),
        assetWrites.addAlbumCount(assetId, -1),
        deletionWrites.albumAsset(albumId, assetId),
      ];
      // Its users' album sync markers first, then the album's change markers (its summary and the
      // sync stream) with the writes: docs/data-model.md, "Album summaries".
      await albumSyncRepo.moveMarkers(await albumSyncRepo.usersOfAlbum(albumId, ownerId));
      await transact([...writes, markAlbum(albumId, writes)]);
      left.push(albumId);
    } catch (error) {
      if (!isCancelled(error)) throw error;
    }
  }
  return left;
};

/**
 * Whose album it is: the owner its summary item names (every write through the album model sets
 * it: docs/data-model.md, "Album summaries"), else the owner its users' items name (an album shared
 * with anyone), else `fallback`, the asset's owner (an album without either is one no one shares,
 * from before summaries knew their owner: its owner's own asset, or a partner's, is in it).
 */
export const albumOwnerOf = async (albumId: string, fallback: string): Promise<string> => {
  const summary = await getItem(keys.albumSummary(albumId));
  if (typeof summary?.ownerId === 'string') return summary.ownerId;
  for await (const [share] of queryPages({ value: `ALBUM#${albumId}`, prefix: 'USER#' }, { attributes: ['ownerId'], pageSize: 1 }))
    if (typeof share?.ownerId === 'string') return share.ownerId;
  return fallback;
};

/**
 * The owner's album that showed the asset as its thumbnail shows its newest remaining entry
 * neither trashed nor locked (Immich's updateThumbnails), only while it still showed the asset.
 */
export const replaceAlbumThumbnail = async (ownerId: string, albumId: string, goneId: string): Promise<void> => {
  const entries = await queryAll(partitions.albumAssets(albumId), { attributes: ['assetId', 'fileCreatedAt', 'deletedAt', 'visibility'] });
  const newest = entries
    .filter((entry) => entry.assetId !== goneId && (entry.deletedAt ?? null) === null && entry.visibility !== 'locked')
    .reduce<Record<string, unknown> | undefined>(
      (best, entry) => (!best || String(entry.fileCreatedAt) > String(best.fileCreatedAt) ? entry : best),
      undefined,
    );
  try {
    const write = updateWrite(keys.album(ownerId, albumId), 'SET albumThumbnailAssetId = :thumbnail, updatedAt = :now', {
      condition: 'albumThumbnailAssetId = :gone',
      values: { ':thumbnail': newest ? String(newest.assetId) : null, ':now': new Date().toISOString(), ':gone': goneId },
    });
    await albumSyncRepo.moveMarkers(await albumSyncRepo.usersOfAlbum(albumId, ownerId));
    await transact([write]);
  } catch (error) {
    // Not the owner's album, gone, or showing another asset: nothing to replace.
    if (!isCancelled(error)) throw error;
  }
};
