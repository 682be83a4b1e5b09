import { getAlbum, leaveAllAlbums, listMembers, touchAlbum } from '../db/album.repository.ts';
import { newestLiveMember } from '../model/album.ts';

/**
 * The owner's albums whose thumbnail was an asset that left them (deleted for good, or moved into
 * the locked folder) get their newest remaining asset (Immich's updateThumbnails).
 */
export const replaceThumbnails = async (ownerId: string, albumIds: readonly string[], goneId: string): Promise<void> => {
  for (const albumId of albumIds) {
    const album = await getAlbum(ownerId, albumId);
    if (!album || album.albumThumbnailAssetId !== goneId) continue;
    const remaining = (await listMembers(albumId)).filter((member) => member.assetId !== goneId);
    await touchAlbum(album, newestLiveMember(remaining), new Date().toISOString());
  }
};

/**
 * An asset moved into the locked folder leaves every album (Immich's `removeAssetsFromAll`), and
 * its owner's albums that showed it as their thumbnail show another.
 */
export const takeOutOfAlbums = async (ownerId: string, assetId: string): Promise<void> => {
  const left = await leaveAllAlbums(assetId);
  await replaceThumbnails(ownerId, left, assetId);
};
