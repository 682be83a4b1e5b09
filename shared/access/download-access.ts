/** Access to downloads: albums, whole libraries and assets, by a user or a shared link's visitor (Immich's download access). */
import * as albumRepo from '../db/album.repository.ts';
import * as assetRepo from '../db/asset.repository.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import type { AlbumRecord } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { requireAlbum } from './album-access.ts';
import { requireAssets, trashed } from './asset-access.ts';
import { noAccess, Permission } from './permission.ts';

/**
 * What a shared-link visitor may download (Immich's `asset.download` and `album.download` for
 * links): only with `allowDownload`, only what the link shows — every one of `assetIds`, or the
 * link's own album. Returns the assets, or the album's id checked.
 */
const requireLinkDownload = async (
  auth: Auth,
  request: { assetIds: readonly string[] } | { albumId: string },
): Promise<{ assets: AssetRecord[]; link: SharedLinkRecord }> => {
  const visit = auth.sharedLink;
  const link = visit ? await sharedLinkRepo.get(auth.user.id, visit.id) : undefined;
  if ('albumId' in request) {
    if (!link?.allowDownload || link.albumId !== request.albumId) throw noAccess(Permission.AlbumDownload);
    return { assets: [], link };
  }
  if (!link?.allowDownload) throw noAccess(Permission.AssetDownload);
  const unique = [...new Set(request.assetIds)];
  const shown = await sharedLinkRepo.assetsLinkShows(link, unique);
  const assets = (await assetRepo.getMany(unique)).filter(
    (asset) => shown.has(asset.id) && asset.ownerId === link.userId && !trashed(asset),
  );
  if (assets.length !== unique.length) throw noAccess(Permission.AssetDownload);
  return { assets, link };
};

/**
 * An album to download (Immich's album.download): the owner's, one shared with the caller, or a
 * visitor's link's album when the link allows downloads (read under the link's owner).
 */
export const requireAlbumDownload = async (auth: Auth, albumId: string): Promise<AlbumRecord> => {
  if (!auth.sharedLink) return requireAlbum(auth, Permission.AlbumDownload, albumId);
  const { link } = await requireLinkDownload(auth, { albumId });
  const album = await albumRepo.get(link.userId, albumId);
  if (!album) throw noAccess(Permission.AlbumDownload);
  return album;
};

/** A whole library to download (Immich's timeline.download): only the caller's own, never a visitor's. */
export const requireTimelineDownload = (auth: Auth, userId: string): void => {
  if (auth.sharedLink || userId !== auth.user.id) throw noAccess(Permission.TimelineDownload);
};

/** The assets of `assetIds` (duplicates once, in the order asked), every one downloadable by the caller (a visitor: shown by a link that allows downloads). */
export const requireDownloadable = async (auth: Auth, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  if (!auth.sharedLink) return requireAssets(auth, Permission.AssetDownload, assetIds);
  const { assets } = await requireLinkDownload(auth, { assetIds });
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  return [...new Set(assetIds)].flatMap((id) => byId.get(id) ?? []);
};
