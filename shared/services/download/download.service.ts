import { requireAlbumDownload, requireDownloadable, requireTimelineDownload } from '../../access/download-access.ts';
import { Invalid } from '../../core/errors.ts';
import * as albumRepo from '../../db/album.repository.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import { type AssetRecord, isListed, seenByOthers } from '../../model/asset.ts';
import type { Auth } from '../../model/user.ts';

/** Immich's default archive size: 4 GiB. */
const defaultArchiveSize = 4 * 1024 ** 3;

/** One archive of a download: the assets in it and their size. */
export interface ArchivePlan {
  size: number;
  assetIds: string[];
}

export interface DownloadInfoInput {
  assetIds?: string[] | null | undefined;
  albumId?: string | null | undefined;
  userId?: string | null | undefined;
  archiveSize?: number | null | undefined;
}

/** The assets a download covers, as Immich picks them: the ids (all downloadable), an album's, or the caller's own library. */
const downloadAssets = async (auth: Auth, dto: DownloadInfoInput): Promise<AssetRecord[]> => {
  if (dto.assetIds) return requireDownloadable(auth, dto.assetIds);
  if (dto.albumId) {
    const album = await requireAlbumDownload(auth, dto.albumId);
    const live = (await albumRepo.listMembers(album.id)).filter(seenByOthers);
    return (await assetRepo.getMany(live.map((member) => member.assetId))).filter(seenByOthers);
  }
  if (dto.userId) {
    requireTimelineDownload(auth, dto.userId);
    const assets: AssetRecord[] = [];
    for await (const page of assetRepo.timelinePages(dto.userId, { descending: true, pageSize: 1000 })) {
      assets.push(...page.filter((asset) => isListed(asset.visibility) && asset.deletedAt === null));
    }
    return assets;
  }
  throw new Invalid('assetIds, albumId, or userId is required');
};

/**
 * POST /download/info: the assets to download (with live photos' video parts), split into
 * archives that close once they pass `archiveSize` (default 4 GiB), as Immich splits them.
 */
export const getDownloadInfo = async (auth: Auth, dto: DownloadInfoInput): Promise<ArchivePlan[]> => {
  const target = dto.archiveSize || defaultArchiveSize;
  const assets = await downloadAssets(auth, dto);
  const motion = await assetRepo.getMany(assets.flatMap((asset) => (asset.livePhotoVideoId ? [asset.livePhotoVideoId] : [])));
  const archives: ArchivePlan[] = [];
  let archive: ArchivePlan = { size: 0, assetIds: [] };
  for (const asset of [...assets, ...motion]) {
    archive.size += asset.exif.fileSizeInByte ?? 0;
    archive.assetIds.push(asset.id);
    if (archive.size > target) {
      archives.push(archive);
      archive = { size: 0, assetIds: [] };
    }
  }
  if (archive.assetIds.length > 0) archives.push(archive);
  return archives;
};
