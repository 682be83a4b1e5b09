import type { SharedLinkRecord, SharedLinkShown } from '../../model/shared-link.ts';
import { type AlbumResponseDto, mapAlbum } from './album.response.ts';
import { type AssetResponseDto, mapAsset, mapSanitizedAsset, type SanitizedAssetResponseDto } from './asset.response.ts';

/** Immich's SharedLinkResponseDto. `password` is a stand-in: only its hash is stored (docs/immich-compatibility.md, "Shared links"). */
export interface SharedLinkResponseDto {
  id: string;
  description: string | null;
  password: string | null;
  token?: string;
  userId: string;
  key: string;
  type: SharedLinkRecord['type'];
  createdAt: string;
  expiresAt: string | null;
  assets: (AssetResponseDto | SanitizedAssetResponseDto)[];
  album?: AlbumResponseDto;
  allowUpload: boolean;
  allowDownload: boolean;
  showMetadata: boolean;
}

/**
 * A link as the v1.100 body: its assets with EXIF (for `callerId`, the creator) or sanitized when
 * the view hides metadata (a visitor of a link without `showMetadata`); its album without assets
 * and without link flags (Immich does not load those relations here); `token` when earned.
 */
export const mapSharedLink = (
  { link, key, password, contents, token }: SharedLinkShown,
  view: { callerId?: string; withExif: boolean },
): SharedLinkResponseDto => ({
  id: link.id,
  description: link.description,
  password: password ?? null,
  userId: link.userId,
  key,
  type: link.type,
  createdAt: link.createdAt,
  expiresAt: link.expiresAt,
  assets: (contents?.assets ?? []).map((asset) =>
    view.withExif ? mapAsset(asset, { withExif: true, ...(view.callerId ? { callerId: view.callerId } : {}) }) : mapSanitizedAsset(asset),
  ),
  ...(contents?.album ? { album: mapAlbum(contents.album.album, { ...contents.album, withLinks: false }) } : {}),
  allowUpload: link.allowUpload,
  allowDownload: link.allowDownload,
  showMetadata: link.showExif,
  // After every other key, as Immich's answer adds it.
  ...(token ? { token } : {}),
});
