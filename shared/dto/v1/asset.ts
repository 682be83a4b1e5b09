import * as v from 'valibot';
import type { AssetDetail, AssetRecord, ExifInfo, FaceRecord } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { UserRecord } from '../../model/user.ts';
import { as, booleanish, dto, isDateString, isPlainObject, objectList, optional, rules, uuid, uuidList } from '../common.ts';

import { type PersonWithFacesResponseDto, peopleWithFaces } from './person.ts';
import { mapUser, type UserResponse } from './user.ts';

/**
 * `@ValidateDate()`: a date string becomes a Date, then IsDate and IsNotEmpty run. (A present value
 * that is not a date string stops the whole request first: see `dateStringErrors`.)
 */
const validateDate = () =>
  v.pipe(
    v.unknown(),
    v.transform((x: unknown) => (isDateString(x) ? new Date(x) : x)),
    v.check((x: unknown) => x instanceof Date && !Number.isNaN(x.getTime()), '$property must be a Date instance'),
    rules.isNotEmpty,
    as<Date>(),
  );

/**
 * Immich converts date fields while it transforms the body, before validating, and throws
 * `<field> must be a date string` (a single string, not a list) for the first bad one, in the
 * order the client sent the fields.
 */
export const dateStringError = (values: Record<string, unknown>, dateFields: readonly string[]): string | undefined => {
  const bad = Object.keys(values).find(
    (key) => dateFields.includes(key) && values[key] !== undefined && values[key] !== null && !isDateString(values[key]),
  );
  return bad === undefined ? undefined : `${bad} must be a date string`;
};

/** The text fields of POST /asset/upload (`CreateAssetDto`); the files are checked before these. */
export const createAssetFields = {
  // `@IsNotEmpty() @IsString()`: messages in class-validator's order (the decorators reversed).
  deviceAssetId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
  fileCreatedAt: validateDate(),
  fileModifiedAt: validateDate(),
  duration: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  libraryId: optional(uuid()),
  isFavorite: optional(booleanish()),
  isArchived: optional(booleanish()),
  isVisible: optional(booleanish()),
  isOffline: optional(booleanish()),
  isReadOnly: optional(booleanish()),
};
export const CreateAssetDto = dto(createAssetFields);
export type CreateAssetInput = v.InferOutput<typeof CreateAssetDto>;

const BulkUploadCheckItem = dto({
  id: v.pipe(v.unknown(), rules.maxLength(limits.clientId), rules.isNotEmpty, rules.isString, as<string>()),
  checksum: v.pipe(v.unknown(), rules.maxLength(limits.checksum), rules.isNotEmpty, rules.isString, as<string>()),
});

export const AssetBulkUploadCheckDto = dto({
  assets: objectList(BulkUploadCheckItem),
});

/** What the server says of one file a client asks about before uploading it. */
export interface AssetBulkUploadCheckResult {
  id: string;
  action: 'accept' | 'reject';
  reason?: 'duplicate' | 'unsupported-format';
  assetId?: string;
}

export interface AssetFileUploadResponseDto {
  id: string;
  duplicate: boolean;
}

export const BulkIdsDto = dto({ ids: uuidList() });

export const AssetBulkDeleteDto = dto({ ids: uuidList(), force: optional(booleanish()) });

const isLatitude = (x: unknown) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Math.abs(Number(x)) <= 90;
const isLongitude = (x: unknown) => (typeof x === 'number' || (typeof x === 'string' && x.trim() !== '')) && Math.abs(Number(x)) <= 180;

// Immich's ValidateGPS: once either coordinate is given (null counts), both are required and checked.
const missingCoordinate = Symbol('missing coordinate');
const withGps = v.transform((input: unknown) => {
  if (!isPlainObject(input) || (input.latitude === undefined && input.longitude === undefined)) return input;
  return {
    ...input,
    latitude: input.latitude === undefined ? missingCoordinate : input.latitude,
    longitude: input.longitude === undefined ? missingCoordinate : input.longitude,
  };
});
/** `@ValidateGPS() @IsLatitude() @IsNotEmpty()` (or IsLongitude): messages in class-validator's order. */
const coordinate = (valid: (x: unknown) => boolean, message: string) =>
  v.pipe(
    v.unknown(),
    v.check((x: unknown) => x === undefined || (x !== missingCoordinate && x !== null && x !== ''), '$property should not be empty'),
    v.check((x: unknown) => x === undefined || (x !== missingCoordinate && valid(x)), message),
    v.transform((x: unknown) => (x === undefined ? undefined : Number(x))),
  );

/** `UpdateAssetBase`: what PUT /asset/:id and PUT /asset change. */
const updateAssetBase = {
  isFavorite: optional(booleanish()),
  isArchived: optional(booleanish()),
  // `@Optional() @IsDateString()`: stored as the instant it names, in UTC (as PostgreSQL returns it).
  dateTimeOriginal: optional(
    v.pipe(
      v.unknown(),
      v.check((x: unknown) => isDateString(x) && !Number.isNaN(new Date(x).getTime()), '$property must be a valid ISO 8601 date string'),
      v.transform((x: unknown) => new Date(x as string).toISOString()),
    ),
  ),
  latitude: coordinate(isLatitude, '$property must be a latitude string or number'),
  longitude: coordinate(isLongitude, '$property must be a longitude string or number'),
};

/** `UpdateAssetDto` (PUT /asset/:id). */
export const UpdateAssetDto = v.pipe(
  v.unknown(),
  withGps,
  dto({
    ...updateAssetBase,
    description: optional(v.pipe(v.unknown(), rules.maxLength(limits.description), rules.isString, as<string>())),
  }),
);

/** `AssetBulkUpdateDto` (PUT /asset): the same changes to many assets; stacks do not exist here. */
export const AssetBulkUpdateDto = v.pipe(
  v.unknown(),
  withGps,
  dto({
    ...updateAssetBase,
    ids: uuidList(),
    stackParentId: optional(uuid()),
    removeParent: optional(booleanish()),
  }),
);

export interface AssetBulkUploadCheckResponseDto {
  results: AssetBulkUploadCheckResult[];
}

/** Each file `accept`ed, or `reject`ed as a `duplicate` of the owner's asset. */
export const mapBulkUploadCheck = (
  checks: readonly { id: string; duplicateOf: string | undefined }[],
): AssetBulkUploadCheckResponseDto => ({
  results: checks.map(({ id, duplicateOf }) =>
    duplicateOf ? { id, assetId: duplicateOf, action: 'reject', reason: 'duplicate' } : { id, action: 'accept' },
  ),
});

/** GET /asset/thumbnail/:id `?format=` (Immich's GetAssetThumbnailDto: WEBP by default). */
export const GetAssetThumbnailDto = dto({
  format: optional(
    v.pipe(
      v.unknown(),
      v.check((x) => x === 'WEBP' || x === 'JPEG', 'format must be one of the following values: JPEG, WEBP'),
      as<'WEBP' | 'JPEG'>(),
    ),
  ),
});

/** GET /asset/file/:id `?isThumb=&isWeb=` (Immich's ServeFileDto). */
export const ServeFileDto = dto({
  isThumb: optional(booleanish('isThumb must be a boolean value')),
  isWeb: optional(booleanish('isWeb must be a boolean value')),
});

// class-validator's `each` rules on a list of strings (a non-array value is its one element).
const eachNotEmpty = v.check(
  (x: unknown) => (Array.isArray(x) ? x : [x]).every((item) => item !== '' && item !== null && item !== undefined),
  'each value in $property should not be empty',
);
const eachString = v.check(
  (x: unknown) => (Array.isArray(x) ? x : [x]).every((item) => typeof item === 'string'),
  'each value in $property must be a string',
);
const arrayNotEmpty = v.check((x: unknown) => Array.isArray(x) && x.length > 0, '$property should not be empty');

/** `CheckExistingAssetsDto` (POST /asset/exist): which of a device's assets the server has. */
export const CheckExistingAssetsDto = dto({
  deviceAssetIds: v.pipe(v.unknown(), eachNotEmpty, eachString, arrayNotEmpty, as<string[]>()),
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isNotEmpty, as<string>()),
});

/** `DeviceIdDto` (GET /asset/device/:deviceId). */
export const DeviceIdParams = dto({
  deviceId: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, rules.isNotEmpty, as<string>()),
});

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

/** GET /asset/:id and PUT /asset/:id: what the service found, shaped for the caller (`callerId`). */
export const mapAssetInfo = (
  info: { view: 'sanitized' | 'exif'; asset: AssetRecord } | ({ view: 'full' } & AssetDetail),
  callerId: string,
): AssetResponseDto | SanitizedAssetResponseDto => {
  if (info.view === 'full') return mapAssetDetail(info, callerId);
  return info.view === 'sanitized' ? mapSanitizedAsset(info.asset) : mapAsset(info.asset, { withExif: true, withTags: true });
};

/** The asset with EXIF, owner, tags and people. */
export const mapAssetDetail = ({ asset, owner, faces, people }: AssetDetail, callerId: string): AssetResponseDto =>
  mapAsset(asset, {
    callerId,
    withExif: true,
    withTags: true,
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
export const mapMemoryLane = (
  { yearsAgo, assets }: { yearsAgo: number; assets: readonly AssetRecord[] },
  callerId: string,
): MemoryLaneResponseDto => ({
  yearsAgo,
  title: `${yearsAgo} year${yearsAgo > 1 ? 's' : ''} since...`,
  assets: assets.map((asset) => mapAsset(asset, { callerId, withExif: true })),
});

/** A list's asset with EXIF and the faces and people the view loaded (GET /person/:id/assets). */
export const mapAssetWithFaces = ({ asset, faces, people }: AssetDetail, callerId: string): AssetResponseDto =>
  mapAsset(asset, { callerId, withExif: true, faces, people: new Map(people.map((person) => [person.id, person])) });
