import * as albumRepo from '#shared/db/album.repository.ts';
import type { SyncClient } from './sync-client.ts';

/**
 * A user's albums as the server has them and as the app's tables (./app-store.ts) have them, in
 * one shape (each album's name and its entries' asset ids, sorted), for the sync tests that check
 * the app ends with what the server has.
 */
export const serverAlbums = async (userId: string) => {
  const albums = [...(await albumRepo.list(userId)), ...(await albumRepo.listSharedWith(userId))];
  return Object.fromEntries(
    await Promise.all(
      albums.map(async (album) => [
        album.id,
        { name: album.albumName, assets: (await albumRepo.listMembers(album.id)).map((member) => member.assetId).sort() },
      ]),
    ),
  );
};

/** What the app holds, in the same shape (its albums and albumAssets tables). */
export const appAlbums = (client: SyncClient) =>
  Object.fromEntries(
    [...client.albums.values()].map((album) => [
      String(album.id),
      {
        name: album.name,
        assets: [...client.albumAssets.values()]
          .filter((entry) => entry.albumId === album.id)
          .map((entry) => String(entry.assetId))
          .sort(),
      },
    ]),
  );
