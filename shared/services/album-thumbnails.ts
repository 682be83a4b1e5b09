import { getAlbum, listMembers, touchAlbum } from '../db/album.repository.ts';
import { newestLiveMember } from '../model/album.ts';

/**
 * The owner's albums whose thumbnail was an asset deleted for good get their newest remaining
 * asset (Immich's updateThumbnails).
 */
export const replaceThumbnails = async (ownerId: string, albumIds: readonly string[], goneId: string): Promise<void> => {
  for (const albumId of albumIds) {
    const album = await getAlbum(ownerId, albumId);
    if (!album || album.albumThumbnailAssetId !== goneId) continue;
    const remaining = (await listMembers(albumId)).filter((member) => member.assetId !== goneId);
    await touchAlbum(album, newestLiveMember(remaining), new Date().toISOString());
  }
};
