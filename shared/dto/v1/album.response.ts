import type { AlbumMember, AlbumRecord, AlbumSummary, AlbumView } from '../../model/album.ts';
import { summaryOfView } from '../../model/album.ts';
import type { UserRecord } from '../../model/user.ts';
import { type AssetResponseDto, mapAsset } from './asset.response.ts';
import { mapUser, type UserResponse } from './user.response.ts';

/** AlbumResponseDto (docs/immich-compatibility.md), keys in Immich's order; `startDate`/`endDate` are left out for an empty album. */
export interface AlbumResponseDto {
  albumName: string;
  description: string;
  albumThumbnailAssetId: string | null;
  createdAt: string;
  updatedAt: string;
  id: string;
  ownerId: string;
  owner: UserResponse;
  sharedUsers: UserResponse[];
  shared: boolean;
  hasSharedLink: boolean;
  startDate?: string;
  endDate?: string;
  assets: AssetResponseDto[];
  assetCount: number;
  isActivityEnabled: boolean;
  order: 'asc' | 'desc';
}

export interface MapAlbumOptions {
  owner: UserRecord;
  /** The users it is shared with, in the album's order. */
  sharedUsers?: readonly UserRecord[];
  /** The album's entries; trashed ones do not count (Immich's joins leave them out). */
  members: readonly AlbumMember[];
  /** Their summary, when the album was read without them (a list: docs/data-model.md, "Album summaries"). */
  summary?: AlbumSummary | undefined;
  /** The album's assets, already mapped and ordered, when the response carries them. */
  assets?: AssetResponseDto[];
  /** Whether the link relation was loaded (it is not when an album is shown inside a shared link). */
  withLinks?: boolean;
}

export const mapAlbum = (album: AlbumRecord, options: MapAlbumOptions): AlbumResponseDto => {
  const { assetCount, startDate, endDate } = summaryOfView(options);
  const hasSharedLink = options.withLinks !== false && album.sharedLinkCount > 0;
  return {
    albumName: album.albumName,
    description: album.description,
    albumThumbnailAssetId: album.albumThumbnailAssetId,
    createdAt: album.createdAt,
    updatedAt: album.updatedAt,
    id: album.id,
    ownerId: album.ownerId,
    owner: mapUser(options.owner),
    sharedUsers: (options.sharedUsers ?? []).map(mapUser),
    shared: hasSharedLink || album.sharedUserIds.length > 0,
    hasSharedLink,
    ...(startDate !== undefined && endDate !== undefined ? { startDate, endDate } : {}),
    assets: options.assets ?? [],
    assetCount,
    isActivityEnabled: album.isActivityEnabled,
    order: album.order,
  };
};

/** An album view as the v1.100 body; its assets (when the view has them) with EXIF, for the caller. */
export const mapAlbumView = ({ album, assets, ...options }: AlbumView, callerId: string): AlbumResponseDto =>
  mapAlbum(album, { ...options, assets: (assets ?? []).map((asset) => mapAsset(asset, { callerId, withExif: true })) });
