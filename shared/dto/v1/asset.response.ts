import type { AssetDetail, AssetInfo, AssetRecord, FaceRecord, YearAgo } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { TagRecord } from '../../model/tag.ts';
import type { UserRecord } from '../../model/user.ts';
import { checksumBase64, type ExifResponseDto, mapExif } from '../common/asset.response.ts';
import { type PersonWithFacesResponseDto, peopleWithFaces } from './person.response.ts';
import { mapTagV1 } from './tag.ts';
import { mapUser, type UserResponse } from './user.response.ts';

export interface AssetFileUploadResponseDto {
  id: string;
  duplicate: boolean;
}

/** AssetResponseDto , keys in Immich's order. */
export interface AssetResponseDto {
  id: string;
  deviceAssetId: string;
  ownerId: string;
  owner?: UserResponse;
  deviceId: string;
  libraryId: string;
  type: AssetRecord['type'];
  originalPath: string;
  originalFileName: string;
  resized: boolean;
  thumbhash: string | null;
  fileCreatedAt: string;
  fileModifiedAt: string;
  localDateTime: string;
  updatedAt: string;
  isFavorite: boolean;
  isArchived: boolean;
  isTrashed: boolean;
  duration: string;
  exifInfo?: ExifResponseDto;
  smartInfo?: { tags: string[]; objects: string[] };
  livePhotoVideoId: string | null;
  tags?: unknown[];
  people: PersonWithFacesResponseDto[];
  checksum: string;
  /** v1.100's stack: its primary asset (the parent), with `withStack`. */
  stackParentId?: string | null;
  /** The stack's other assets, in the asset's detail (GET /asset/:id). */
  stack?: AssetResponseDto[];
  stackCount: number | null;
  isExternal: boolean;
  isOffline: boolean;
  isReadOnly: boolean;
  hasMetadata: boolean;
}

export interface MapAssetOptions {
  /** v1.100's `withStack`: the stack's parent, and its other assets when given (`stackChildren`). */
  withStack?: boolean;
  stackChildren?: readonly AssetRecord[];
  /** The caller: only the owner sees the real isFavorite / isArchived (Immich's rule). */
  callerId?: string;
  withExif?: boolean;
  owner?: UserRecord;
  faces?: readonly FaceRecord[];
  people?: ReadonlyMap<string, PersonRecord>;
  /** Loaded tags (GET /asset/:id loads them): these, or `[]`. */
  withTags?: boolean;
  tags?: readonly TagRecord[];
  /** Loaded smart info (GET /search text mode): `{tags: [], objects: []}` without machine learning. */
  withSmartInfo?: boolean;
}

/**
 * v1.100's duration text from milliseconds: luxon's `hh:mm:ss.SSS` as Immich's metadata job
 * wrote it (`00:01:05.005`), and `0:00:00.00000` for none.
 */
const durationText = (millis: number | null): string => {
  if (millis === null) return '0:00:00.00000';
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(millis / 3_600_000))}:${pad(Math.floor(millis / 60_000) % 60)}:${pad(Math.floor(millis / 1000) % 60)}.${pad(millis % 1000, 3)}`;
};

/** The one way an asset leaves the API (Immich's `mapAsset`); undefined fields are left out of the JSON. */
export const mapAsset = (asset: AssetRecord, options: MapAssetOptions = {}): AssetResponseDto => {
  const isOwner = options.callerId !== undefined && options.callerId === asset.ownerId;
  return {
    id: asset.id,
    deviceAssetId: asset.deviceAssetId,
    ownerId: asset.ownerId,
    ...(options.owner ? { owner: mapUser(options.owner) } : {}),
    deviceId: asset.deviceId,
    libraryId: asset.libraryId,
    type: asset.type,
    originalPath: asset.originalPath,
    originalFileName: asset.originalFileName,
    resized: Boolean(asset.resizePath),
    thumbhash: asset.thumbhash,
    fileCreatedAt: asset.fileCreatedAt,
    fileModifiedAt: asset.fileModifiedAt,
    localDateTime: asset.localDateTime,
    updatedAt: asset.updatedAt,
    isFavorite: isOwner ? asset.isFavorite : false,
    isArchived: isOwner ? asset.visibility === 'archive' : false,
    isTrashed: asset.deletedAt !== null,
    duration: durationText(asset.duration),
    ...(options.withExif ? { exifInfo: mapExif(asset.exif) } : {}),
    ...(options.withSmartInfo ? { smartInfo: { tags: [], objects: [] } } : {}),
    livePhotoVideoId: asset.livePhotoVideoId,
    ...(options.withTags ? { tags: (options.tags ?? []).map(mapTagV1) } : {}),
    people: options.faces && options.people ? peopleWithFaces(options.faces, options.people) : [],
    checksum: checksumBase64(asset.checksum),
    ...(options.withStack && asset.stack ? { stackParentId: asset.stack.primaryAssetId } : {}),
    ...(options.withStack && asset.stack && options.stackChildren
      ? { stack: options.stackChildren.map((child) => mapAsset(child, { callerId: options.callerId })) }
      : {}),
    stackCount: asset.stack?.assetCount ?? null,
    isExternal: asset.isExternal,
    isOffline: asset.isOffline,
    isReadOnly: asset.isReadOnly,
    hasMetadata: true,
  };
};

/** The reduced asset a shared-link visitor gets when the link hides metadata (`showMetadata: false`). */
export interface SanitizedAssetResponseDto {
  id: string;
  type: AssetRecord['type'];
  thumbhash: string | null;
  localDateTime: string;
  resized: boolean;
  duration: string;
  livePhotoVideoId: string | null;
  hasMetadata: false;
}

export const mapSanitizedAsset = (asset: AssetRecord): SanitizedAssetResponseDto => ({
  id: asset.id,
  type: asset.type,
  thumbhash: asset.thumbhash,
  localDateTime: asset.localDateTime,
  resized: Boolean(asset.resizePath),
  duration: durationText(asset.duration),
  livePhotoVideoId: asset.livePhotoVideoId,
  hasMetadata: false,
});

/** GET /asset/:id and PUT /asset/:id: what the service found, shaped for the caller (`callerId`). */
export const mapAssetInfo = (
  info: AssetInfo,
  callerId: string,
  stackChildren?: readonly AssetRecord[],
): AssetResponseDto | SanitizedAssetResponseDto => {
  if (info.view === 'full') return mapAssetDetail(info, callerId, stackChildren);
  return info.view === 'sanitized' ? mapSanitizedAsset(info.asset) : mapAsset(info.asset, { withExif: true, withTags: true });
};

/** The asset with EXIF, owner, tags and people. */
export const mapAssetDetail = (
  { asset, owner, faces, people, tags }: AssetDetail,
  callerId: string,
  stackChildren?: readonly AssetRecord[],
): AssetResponseDto =>
  mapAsset(asset, {
    callerId,
    withStack: true,
    ...(stackChildren ? { stackChildren } : {}),
    withExif: true,
    withTags: true,
    ...(tags ? { tags } : {}),
    ...(owner ? { owner } : {}),
    faces,
    people: new Map(people.map((person) => [person.id, person])),
  });

export interface CheckExistingAssetsResponseDto {
  existingIds: string[];
}

export interface MemoryLaneResponseDto {
  yearsAgo: number;
  title: string;
  assets: AssetResponseDto[];
}

/** One group of the memory lane: Immich's title, its assets with EXIF. */
export const mapMemoryLane = ({ yearsAgo, assets }: YearAgo, callerId: string): MemoryLaneResponseDto => ({
  yearsAgo,
  title: `${yearsAgo} year${yearsAgo > 1 ? 's' : ''} since...`,
  assets: assets.map((asset) => mapAsset(asset, { callerId, withExif: true })),
});

/** A list's asset with EXIF and the faces and people the view loaded (GET /person/:id/assets). */
export const mapAssetWithFaces = ({ asset, faces, people }: AssetDetail, callerId: string): AssetResponseDto =>
  mapAsset(asset, { callerId, withExif: true, faces, people: new Map(people.map((person) => [person.id, person])) });
