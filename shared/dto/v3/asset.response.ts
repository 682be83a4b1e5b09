/**
 * Immich v3.2's asset answers (`@immich/sdk` 3.2.2: AssetResponseDto, ExifResponseDto,
 * AssetMediaResponseDto, AssetBulkUploadCheckResponseDto, AssetStatsResponseDto), over the same
 * records as v1.100's (shared/dto/v1/asset.response.ts). docs/immich-compatibility.md, "Two generations".
 */
import {
  type AssetDetail,
  type AssetInfo,
  type AssetRecord,
  type AssetVisibility,
  dimensionsOf,
  type ExifInfo,
} from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { UploadOutcome } from '../../model/upload.ts';
import type { UserRecord } from '../../model/user.ts';
import { checksumBase64, mapExif } from '../common/asset.response.ts';
import { mapPersonV3, type PersonResponseDto } from './person.response.ts';
import { mapTagV3 } from './tag.ts';
import { mapUserV3, type UserResponseDto } from './user.response.ts';

export type ExifResponseDto = ExifInfo;

export interface AssetStackResponseDto {
  id: string;
  primaryAssetId: string;
  assetCount: number;
}

export interface AssetResponseDto {
  id: string;
  createdAt: string;
  ownerId: string;
  owner?: UserResponseDto;
  libraryId: string | null;
  type: AssetRecord['type'];
  originalPath: string;
  originalFileName: string;
  /** GET /assets/:id only (mapAssetInfoV3). */
  originalMimeType?: string;
  thumbhash: string | null;
  fileCreatedAt: string;
  fileModifiedAt: string;
  localDateTime: string;
  updatedAt: string;
  isFavorite: boolean;
  isArchived: boolean;
  isTrashed: boolean;
  isOffline: boolean;
  visibility: AssetVisibility;
  duration: number | null;
  exifInfo?: ExifResponseDto;
  livePhotoVideoId: string | null;
  tags?: unknown[];
  people?: PersonResponseDto[];
  checksum: string;
  stack?: AssetStackResponseDto | null;
  duplicateId: string | null;
  resized: boolean;
  width: number | null;
  height: number | null;
  isEdited: boolean;
  hasMetadata: boolean;
}

export interface MapAssetOptionsV3 {
  /** The caller: only the owner sees the real isFavorite (Immich's rule). */
  callerId?: string | undefined;
  withExif?: boolean;
  owner?: UserRecord | undefined;
  /** The people of its faces, when the view loaded them (an empty list otherwise, as Immich). */
  people?: readonly PersonRecord[];
  /** The original's media type, where the answer has it (GET /assets/:id: mapAssetInfoV3). */
  originalMimeType?: string | undefined;
}

export const mapExifV3 = (exif: Partial<ExifInfo>): ExifResponseDto => ({ ...mapExif(exif), rating: exif.rating ?? null });

/**
 * Immich v3's `mapAsset`. `libraryId` is null (v3 keeps libraries for external folders; an upload
 * belongs to none); `isEdited` and the size as the photo edits make it; `duplicateId` its duplicate group; the stack only
 * in the detail (as Immich loads it).
 */
export const mapAssetV3 = (asset: AssetRecord, options: MapAssetOptionsV3 = {}): AssetResponseDto => {
  const { width, height } = dimensionsOf(asset);
  return {
    id: asset.id,
    createdAt: asset.createdAt,
    ownerId: asset.ownerId,
    ...(options.owner ? { owner: mapUserV3(options.owner) } : {}),
    libraryId: null,
    type: asset.type,
    originalPath: asset.originalPath,
    originalFileName: asset.originalFileName,
    ...(options.originalMimeType ? { originalMimeType: options.originalMimeType } : {}),
    thumbhash: asset.thumbhash,
    fileCreatedAt: asset.fileCreatedAt,
    fileModifiedAt: asset.fileModifiedAt,
    localDateTime: asset.localDateTime,
    updatedAt: asset.updatedAt,
    isFavorite: options.callerId === asset.ownerId && asset.isFavorite,
    isArchived: asset.visibility === 'archive',
    isTrashed: asset.deletedAt !== null,
    isOffline: asset.isOffline,
    visibility: asset.visibility,
    duration: asset.duration,
    ...(options.withExif ? { exifInfo: mapExifV3(asset.exif) } : {}),
    livePhotoVideoId: asset.livePhotoVideoId,
    people: (options.people ?? []).map(mapPersonV3),
    checksum: checksumBase64(asset.checksum),
    duplicateId: asset.duplicateId ?? null,
    resized: true,
    width,
    height,
    isEdited: asset.edits.length > 0,
    hasMetadata: true,
  };
};

/** The asset with EXIF, owner and people (GET /assets/:id, PUT /assets/:id); tags and stack as Immich loads them there. */
export const mapAssetDetailV3 = (
  { asset, owner, people, tags }: AssetDetail,
  callerId: string,
  originalMimeType?: string,
): AssetResponseDto => ({
  ...mapAssetV3(asset, { callerId, withExif: true, owner, people, originalMimeType }),
  tags: (tags ?? []).map(mapTagV3),
  stack: asset.stack ? { id: asset.stack.id, primaryAssetId: asset.stack.primaryAssetId, assetCount: asset.stack.assetCount } : null,
});

/**
 * GET /assets/:id: what the service found, shaped for the caller (a visitor's view without owner
 * and people), with the original's media type beside its name (the mobile app's Cast hands it to
 * the receiver). Immich answers it in every asset; only this answer has it here (it is optional).
 */
export const mapAssetInfoV3 = (info: AssetInfo, callerId: string): AssetResponseDto | SanitizedAssetResponseDto => {
  const { originalMimeType } = info;
  if (info.view === 'full') return mapAssetDetailV3(info, callerId, originalMimeType);
  return info.view === 'sanitized'
    ? mapSanitizedAssetV3(info.asset, originalMimeType)
    : { ...mapAssetV3(info.asset, { withExif: true, originalMimeType }), tags: [] };
};

/** The reduced asset a shared-link visitor gets when the link hides metadata (v3's SanitizedAssetResponseDto). */
export interface SanitizedAssetResponseDto {
  id: string;
  type: AssetRecord['type'];
  originalMimeType?: string;
  thumbhash: string | null;
  localDateTime: string;
  duration: number | null;
  livePhotoVideoId: string | null;
  hasMetadata: false;
  width: number | null;
  height: number | null;
}

export const mapSanitizedAssetV3 = (asset: AssetRecord, originalMimeType?: string): SanitizedAssetResponseDto => ({
  id: asset.id,
  type: asset.type,
  ...(originalMimeType ? { originalMimeType } : {}),
  thumbhash: asset.thumbhash,
  localDateTime: asset.localDateTime,
  duration: asset.duration,
  livePhotoVideoId: asset.livePhotoVideoId,
  hasMetadata: false,
  ...dimensionsOf(asset),
});

/** POST /assets: the asset's id, `created`, or `duplicate` of the owner's existing one (Immich answers it 200). */
export interface AssetMediaResponseDto {
  id: string;
  status: 'created' | 'duplicate';
}

export const mapUploadV3 = ({ id, duplicate }: UploadOutcome): AssetMediaResponseDto => ({
  id,
  status: duplicate ? 'duplicate' : 'created',
});
