/**
 * Immich v3.2's album answers (`@immich/sdk` 3.2.2: AlbumResponseDto, AlbumUserResponseDto,
 * AlbumStatisticsResponseDto, AlbumsAddAssetsResponseDto), over the same views as v1.100's.
 */
import type { AlbumUserRole, AlbumView, BulkIdResult } from '../../model/album.ts';
import { roleOf, summaryOfView } from '../../model/album.ts';
import { mapUserV3, type UserResponseDto } from './user.response.ts';

export interface AlbumUserResponseDto {
  user: UserResponseDto;
  role: AlbumUserRole | 'owner';
}

export interface AlbumResponseDto {
  id: string;
  albumName: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  albumThumbnailAssetId: string | null;
  shared: boolean;
  albumUsers: AlbumUserResponseDto[];
  hasSharedLink: boolean;
  assetCount: number;
  startDate?: string;
  endDate?: string;
  isActivityEnabled: boolean;
  order: 'asc' | 'desc';
}

/**
 * v3's `mapAlbum`: the owner first (role `owner`), then the caller if someone else, then the rest
 * by name; start and end are the earliest and latest local dates of its untrashed assets.
 */
export const mapAlbumV3 = (view: AlbumView, callerId: string): AlbumResponseDto => {
  const { album, owner, sharedUsers } = view;
  const { assetCount, localStartDate, localEndDate } = summaryOfView(view);
  const others = [...sharedUsers].sort(
    (a, b) => Number(b.id === callerId) - Number(a.id === callerId) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
  const hasSharedLink = album.sharedLinkCount > 0;
  return {
    id: album.id,
    albumName: album.albumName,
    description: album.description,
    createdAt: album.createdAt,
    updatedAt: album.updatedAt,
    albumThumbnailAssetId: album.albumThumbnailAssetId,
    shared: hasSharedLink || album.sharedUserIds.length > 0,
    albumUsers: [
      { user: mapUserV3(owner), role: 'owner' },
      ...others.map((user) => ({ user: mapUserV3(user), role: roleOf(album, user.id) })),
    ],
    hasSharedLink,
    assetCount,
    ...(localStartDate !== undefined && localEndDate !== undefined ? { startDate: localStartDate, endDate: localEndDate } : {}),
    isActivityEnabled: album.isActivityEnabled,
    order: album.order,
  };
};

export interface AlbumsAddAssetsResponseDto {
  success: boolean;
  error?: BulkIdResult['error'];
}
