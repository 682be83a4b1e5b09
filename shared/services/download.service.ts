import { noAccess, Permission, requireAlbum, requireAssets, requireLinkDownload } from '../access/access.ts';
import { Invalid } from '../core/errors.ts';
import { getAlbum, listMembers } from '../db/album.repository.ts';
import { getAssets, timelinePages } from '../db/asset.repository.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { Auth } from '../model/user.ts';

/** Immich's default archive size: 4 GiB. */
const defaultArchiveSize = 4 * 1024 ** 3;

export interface DownloadArchiveInfo {
  size: number;
  assetIds: string[];
}

export interface DownloadResponseDto {
  totalSize: number;
  archives: DownloadArchiveInfo[];
}

export interface DownloadInfoInput {
  assetIds?: string[] | null | undefined;
  albumId?: string | null | undefined;
  userId?: string | null | undefined;
  archiveSize?: number | null | undefined;
}

/** The assets a download covers, as Immich picks them: the ids (all downloadable), an album's, or the caller's own library. */
const downloadAssets = async (auth: Auth, dto: DownloadInfoInput): Promise<AssetRecord[]> => {
  if (dto.assetIds) return downloadable(auth, dto.assetIds);
  if (dto.albumId) {
    // Immich's album.download: the owner, the users it is shared with, a visitor of its link.
    const album = auth.sharedLink
      ? await requireLinkDownload(auth, { albumId: dto.albumId }).then(({ link }) => requireAlbumOf(link.userId, dto.albumId ?? ''))
      : await requireAlbum(auth, Permission.AlbumDownload, dto.albumId);
    const live = (await listMembers(album.id)).filter((member) => member.deletedAt === null);
    return (await getAssets(live.map((member) => member.assetId))).filter((asset) => asset.deletedAt === null);
  }
  if (dto.userId) {
    if (auth.sharedLink || dto.userId !== auth.user.id) throw noAccess(Permission.TimelineDownload);
    const assets: AssetRecord[] = [];
    for await (const page of timelinePages(dto.userId, { descending: true, pageSize: 1000 })) {
      assets.push(...page.filter((asset) => asset.isVisible && asset.deletedAt === null));
    }
    return assets;
  }
  throw new Invalid('assetIds, albumId, or userId is required');
};

/** The assets of `assetIds`, every one downloadable by the caller (a visitor: shown by their link, which allows downloads). */
export const downloadable = async (auth: Auth, assetIds: readonly string[]): Promise<AssetRecord[]> => {
  if (!auth.sharedLink) return requireAssets(auth, Permission.AssetDownload, assetIds);
  const { assets } = await requireLinkDownload(auth, { assetIds });
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  return [...new Set(assetIds)].flatMap((id) => byId.get(id) ?? []);
};

/** A link's album, read under its owner (the visitor's auth is the owner's, as in Immich). */
const requireAlbumOf = async (ownerId: string, albumId: string) => {
  const album = await getAlbum(ownerId, albumId);
  if (!album) throw noAccess(Permission.AlbumDownload);
  return album;
};

/**
 * POST /download/info: the assets to download (with live photos' video parts), split into
 * archives that close once they pass `archiveSize` (default 4 GiB), as Immich splits them.
 */
export const getDownloadInfo = async (auth: Auth, dto: DownloadInfoInput): Promise<DownloadResponseDto> => {
  const target = dto.archiveSize || defaultArchiveSize;
  const assets = await downloadAssets(auth, dto);
  const motion = await getAssets(assets.flatMap((asset) => (asset.livePhotoVideoId ? [asset.livePhotoVideoId] : [])));
  const archives: DownloadArchiveInfo[] = [];
  let archive: DownloadArchiveInfo = { size: 0, assetIds: [] };
  for (const asset of [...assets, ...motion]) {
    archive.size += asset.exif.fileSizeInByte ?? 0;
    archive.assetIds.push(asset.id);
    if (archive.size > target) {
      archives.push(archive);
      archive = { size: 0, assetIds: [] };
    }
  }
  if (archive.assetIds.length > 0) archives.push(archive);
  return { totalSize: archives.reduce((sum, each) => sum + each.size, 0), archives };
};
