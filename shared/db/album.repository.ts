import type { AlbumMember, AlbumRecord } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import { batchDelete } from './batch.ts';
import { albumCodec, albumMemberCodec, albumWrites } from './entities/album.ts';
import { getItem } from './get.ts';
import { chunk } from './items.ts';
import { keys, partitions } from './keys.ts';
import { queryAll } from './query.ts';
import { transact, writeOne } from './transact.ts';

export const getAlbum = async (ownerId: string, albumId: string): Promise<AlbumRecord | undefined> => {
  const item = await getItem(keys.album(ownerId, albumId));
  return item ? albumCodec.read(item) : undefined;
};

export const listAlbums = async (ownerId: string): Promise<AlbumRecord[]> =>
  (await queryAll(partitions.userAlbums(ownerId))).map(albumCodec.read);

/** Every entry of an album: one Query on the album's partition. */
export const listMembers = async (albumId: string): Promise<AlbumMember[]> =>
  (await queryAll(partitions.albumAssets(albumId))).map(albumMemberCodec.read);

/** The ids of the albums an asset is in (gsi2). */
export const listAlbumIdsOfAsset = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetAlbums(assetId), { attributes: ['albumId'] })).map((item) => String(item.albumId));

/**
 * Creates an album with its first assets: the album and up to 49 entries (each with its asset's
 * album count) are one transaction; further entries follow 50 a transaction, and if one fails
 * everything written is undone, so a failed create leaves nothing.
 */
export const createAlbum = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<void> => {
  const [first = [], ...rest] = [assets.slice(0, 49), ...chunk(assets.slice(49), 50)];
  await transact([albumWrites.create(album), ...first.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt))]);
  const done: AssetRecord[] = [...first];
  try {
    for (const part of rest) {
      await transact(part.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt)));
      done.push(...part);
    }
  } catch (error) {
    for (const part of chunk(done, 50)) await transact(part.flatMap((asset) => albumWrites.leave(album.id, asset.id)));
    await batchDelete([keys.album(album.ownerId, album.id)]);
    throw error;
  }
};

/** Adds new entries (50 a transaction, each with its asset's album count), then sets the thumbnail and updatedAt. */
export const addMembers = async (album: AlbumRecord, assets: readonly AssetRecord[], thumbnailId: string | null): Promise<void> => {
  const now = new Date().toISOString();
  for (const part of chunk(assets, 50)) await transact(part.flatMap((asset) => albumWrites.join(album.id, asset, now)));
  await touchAlbum(album, thumbnailId, now);
};

export const removeMembers = async (album: AlbumRecord, assetIds: readonly string[], thumbnailId: string | null): Promise<void> => {
  for (const part of chunk(assetIds, 50)) await transact(part.flatMap((assetId) => albumWrites.leave(album.id, assetId)));
  await touchAlbum(album, thumbnailId, new Date().toISOString());
};

export const touchAlbum = async (album: AlbumRecord, thumbnailId: string | null, now: string): Promise<void> => {
  await writeOne(albumWrites.touch(album, thumbnailId, now));
};
