import type { AssetRecord, ExifInfo, FaceRecord } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import type { UserRecord } from '../model/user.ts';
import type { UserResponse } from '../schemas/user.ts';
import { type PersonWithFacesResponseDto, peopleWithFaces } from './person.mapper.ts';
import { mapUser } from './user.mapper.ts';

export type ExifResponseDto = ExifInfo;

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
  stackCount: number | null;
  isExternal: boolean;
  isOffline: boolean;
  isReadOnly: boolean;
  hasMetadata: boolean;
}

export interface MapAssetOptions {
  /** The caller: only the owner sees the real isFavorite / isArchived (Immich's rule). */
  callerId?: string;
  withExif?: boolean;
  owner?: UserRecord;
  faces?: readonly FaceRecord[];
  people?: ReadonlyMap<string, PersonRecord>;
  /** Loaded tags (GET /asset/:id loads them; none exist here yet, so `[]`). */
  withTags?: boolean;
  /** Loaded smart info (GET /search text mode): `{tags: [], objects: []}` without machine learning. */
  withSmartInfo?: boolean;
}

/** ExifResponseDto: every key, null where unknown, in Immich's order. */
export const mapExif = (exif: Partial<ExifInfo>): ExifResponseDto => ({
  make: exif.make ?? null,
  model: exif.model ?? null,
  exifImageWidth: exif.exifImageWidth ?? null,
  exifImageHeight: exif.exifImageHeight ?? null,
  fileSizeInByte: exif.fileSizeInByte ?? null,
  orientation: exif.orientation ?? null,
  dateTimeOriginal: exif.dateTimeOriginal ?? null,
  modifyDate: exif.modifyDate ?? null,
  timeZone: exif.timeZone ?? null,
  lensModel: exif.lensModel ?? null,
  fNumber: exif.fNumber ?? null,
  focalLength: exif.focalLength ?? null,
  iso: exif.iso ?? null,
  exposureTime: exif.exposureTime ?? null,
  latitude: exif.latitude ?? null,
  longitude: exif.longitude ?? null,
  city: exif.city ?? null,
  state: exif.state ?? null,
  country: exif.country ?? null,
  description: exif.description ?? null,
  projectionType: exif.projectionType ?? null,
});

/** SHA-1 hex (stored) → base64 (28 characters, as Immich sends). */
export const checksumBase64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

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
    isArchived: isOwner ? asset.isArchived : false,
    isTrashed: asset.deletedAt !== null,
    duration: asset.duration ?? '0:00:00.00000',
    ...(options.withExif ? { exifInfo: mapExif(asset.exif) } : {}),
    ...(options.withSmartInfo ? { smartInfo: { tags: [], objects: [] } } : {}),
    livePhotoVideoId: asset.livePhotoVideoId,
    ...(options.withTags ? { tags: [] } : {}),
    people: options.faces && options.people ? peopleWithFaces(options.faces, options.people) : [],
    checksum: checksumBase64(asset.checksum),
    stackCount: null,
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
  duration: asset.duration ?? '0:00:00.00000',
  livePhotoVideoId: asset.livePhotoVideoId,
  hasMetadata: false,
});

/** fileCreatedAt, then id: the order Immich's lists use (ties broken by id so pages are stable). */
export const byFileCreatedAt =
  (order: 'asc' | 'desc') =>
  (a: { fileCreatedAt: string; id: string }, b: { fileCreatedAt: string; id: string }): number =>
    (order === 'asc' ? a.fileCreatedAt.localeCompare(b.fileCreatedAt) : b.fileCreatedAt.localeCompare(a.fileCreatedAt)) ||
    a.id.localeCompare(b.id);
