import { randomUUID } from 'node:crypto';
import type { AssetRecord, ExifInfo, FaceRecord } from '#shared/model/asset.ts';
import type { UserRecord } from '#shared/model/user.ts';

/** EXIF with every field unknown, but those given. */
export const exifInfo = (given: Partial<ExifInfo> = {}): ExifInfo => ({
  make: null,
  model: null,
  exifImageWidth: null,
  exifImageHeight: null,
  fileSizeInByte: null,
  orientation: null,
  dateTimeOriginal: null,
  modifyDate: null,
  timeZone: null,
  lensModel: null,
  fNumber: null,
  focalLength: null,
  iso: null,
  exposureTime: null,
  latitude: null,
  longitude: null,
  city: null,
  state: null,
  country: null,
  description: null,
  projectionType: null,
  rating: null,
  ...given,
});

/**
 * An asset record as an upload stores it, for tests and benches that write items directly: a
 * visible, unarchived image taken at `at` (every date), with the fields given on top.
 */
export const assetRecord = (
  ownerId: string,
  given: Partial<Omit<AssetRecord, 'exif'>> & { at?: string; exif?: Partial<ExifInfo> } = {},
): AssetRecord => {
  const { at = '2024-01-01T00:00:00.000Z', exif, ...fields } = given;
  const id = fields.id ?? randomUUID();
  return {
    id,
    ownerId,
    libraryId: ownerId,
    deviceAssetId: `device-${id}`,
    deviceId: 'test',
    type: 'IMAGE',
    originalPath: `upload/${ownerId}/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}.jpg`,
    originalFileName: `${id}.jpg`,
    sidecarPath: null,
    checksum: randomUUID().replaceAll('-', '').padEnd(40, '0'),
    fileCreatedAt: at,
    fileModifiedAt: at,
    localDateTime: at,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    isFavorite: false,
    visibility: 'timeline',
    isOffline: false,
    isReadOnly: false,
    isExternal: false,
    duration: null,
    livePhotoVideoId: null,
    thumbhash: null,
    resizePath: null,
    personIds: [],
    faceIds: [],
    albumCount: 0,
    stack: null,
    edits: [],
    geocoded: false,
    editedFullsizePath: null,
    editedPreviewPath: null,
    editedThumbnailPath: null,
    ...fields,
    exif: exifInfo(exif),
  };
};

/** The EXIF of a typical camera photo taken at `when` (the benches' libraries). */
export const cameraExif = (when: string): Partial<ExifInfo> => ({
  exifImageWidth: 4000,
  exifImageHeight: 3000,
  fileSizeInByte: 1,
  orientation: '1',
  dateTimeOriginal: when,
  modifyDate: when,
  timeZone: 'UTC',
  fNumber: 2.8,
  focalLength: 35,
  iso: 100,
  exposureTime: '1/100',
  description: '',
});

/** A face of `personId` on asset `assetId` (a small box on a 4000×3000 photo). */
export const faceRecord = (assetId: string, personId: string, ownerId: string, index = 0): FaceRecord => ({
  id: randomUUID(),
  assetId,
  personId,
  ownerId,
  imageWidth: 4000,
  imageHeight: 3000,
  boundingBoxX1: 1,
  boundingBoxY1: 1,
  boundingBoxX2: 2,
  boundingBoxY2: 2,
  index,
  sourceType: 'exif',
});

/** A user record as sign-up stores it, for tests of rules that take one: an active user, with the fields given on top. */
export const userRecord = (given: Partial<UserRecord> = {}): UserRecord => {
  const id = given.id ?? randomUUID();
  const at = '2024-01-01T00:00:00.000Z';
  return {
    id,
    email: `${id}@immich.cloud`,
    name: 'A user',
    isAdmin: false,
    passwordHash: '$argon2id$not-a-real-hash',
    pinCodeHash: null,
    storageLabel: null,
    shouldChangePassword: false,
    memoriesEnabled: true,
    profileImagePath: '',
    oauthId: '',
    status: 'active',
    deletedAt: null,
    quotaSizeInBytes: null,
    quotaUsageInBytes: 0,
    createdAt: at,
    updatedAt: at,
    defaultLibraryId: id,
    uploadSessions: {},
    uploadSessionsOpened: 0,
    usagePhotos: 0,
    usageVideos: 0,
    usageByType: false,
    isOnboarded: false,
    license: null,
    ...given,
  };
};
