import * as v from 'valibot';
import type { AlbumRecord } from '../../model/album.ts';
import { type AssetRecord, dimensionsOf, type FaceRecord } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { UserRecord } from '../../model/user.ts';
import { checksumBase64 } from '../v1/asset.response.ts';

/** What the app may ask the stream for (Immich v3.2's `SyncRequestType`). */
export const syncRequestTypes = [
  'AlbumsV1',
  'AlbumsV2',
  'AlbumUsersV1',
  'AlbumToAssetsV1',
  'AlbumAssetsV1',
  'AlbumAssetsV2',
  'AlbumAssetExifsV1',
  'AssetsV1',
  'AssetsV2',
  'AssetExifsV1',
  'AssetEditsV1',
  'AssetMetadataV1',
  'AssetOcrV1',
  'AuthUsersV1',
  'MemoriesV1',
  'MemoryToAssetsV1',
  'PartnersV1',
  'PartnerAssetsV1',
  'PartnerAssetsV2',
  'PartnerAssetExifsV1',
  'PartnerStacksV1',
  'StacksV1',
  'UsersV1',
  'PeopleV1',
  'AssetFacesV1',
  'AssetFacesV2',
  'UserMetadataV1',
] as const;
export type SyncRequestType = (typeof syncRequestTypes)[number];

/** What a line of the stream may be (Immich v3.2's `SyncEntityType`): acks name these. */
export const syncEntityTypes = [
  'AuthUserV1',
  'UserV1',
  'UserDeleteV1',
  'AssetV1',
  'AssetV2',
  'AssetDeleteV1',
  'AssetExifV1',
  'AssetEditV1',
  'AssetEditDeleteV1',
  'AssetMetadataV1',
  'AssetMetadataDeleteV1',
  'AssetOcrV1',
  'AssetOcrDeleteV1',
  'PartnerV1',
  'PartnerDeleteV1',
  'PartnerAssetV1',
  'PartnerAssetV2',
  'PartnerAssetBackfillV1',
  'PartnerAssetBackfillV2',
  'PartnerAssetDeleteV1',
  'PartnerAssetExifV1',
  'PartnerAssetExifBackfillV1',
  'PartnerStackBackfillV1',
  'PartnerStackDeleteV1',
  'PartnerStackV1',
  'AlbumV1',
  'AlbumV2',
  'AlbumDeleteV1',
  'AlbumUserV1',
  'AlbumUserBackfillV1',
  'AlbumUserDeleteV1',
  'AlbumAssetCreateV1',
  'AlbumAssetCreateV2',
  'AlbumAssetUpdateV1',
  'AlbumAssetUpdateV2',
  'AlbumAssetBackfillV1',
  'AlbumAssetBackfillV2',
  'AlbumAssetExifCreateV1',
  'AlbumAssetExifUpdateV1',
  'AlbumAssetExifBackfillV1',
  'AlbumToAssetV1',
  'AlbumToAssetDeleteV1',
  'AlbumToAssetBackfillV1',
  'MemoryV1',
  'MemoryDeleteV1',
  'MemoryToAssetV1',
  'MemoryToAssetDeleteV1',
  'StackV1',
  'StackDeleteV1',
  'PersonV1',
  'PersonDeleteV1',
  'AssetFaceV1',
  'AssetFaceV2',
  'AssetFaceDeleteV1',
  'UserMetadataV1',
  'UserMetadataDeleteV1',
  'SyncAckV1',
  'SyncResetV1',
  'SyncCompleteV1',
] as const;
export type SyncEntityType = (typeof syncEntityTypes)[number];

/** POST /sync/stream. */
export const SyncStreamBody = v.object({
  types: v.array(v.picklist(syncRequestTypes)),
  reset: v.optional(v.boolean()),
});

/** POST /sync/ack: each ack is `<type>|<updateId>[|<extraId>]`; its type is checked by the service (Immich's message). */
export const SyncAckSetBody = v.object({ acks: v.pipe(v.array(v.string()), v.maxLength(1000)) });

/** DELETE /sync/ack. */
export const SyncAckDeleteBody = v.object({ types: v.optional(v.array(v.picklist(syncEntityTypes))) });

export interface SyncAckDto {
  type: SyncEntityType;
  ack: string;
}

/** Immich's `SyncAssetV2`: the asset as the app's remote asset table keeps it. */
export const mapSyncAsset = (asset: AssetRecord, options: { favorite: boolean }) => {
  const { width, height } = dimensionsOf(asset);
  return {
    id: asset.id,
    ownerId: asset.ownerId,
    originalFileName: asset.originalFileName,
    thumbhash: asset.thumbhash,
    checksum: checksumBase64(asset.checksum),
    fileCreatedAt: asset.fileCreatedAt,
    fileModifiedAt: asset.fileModifiedAt,
    createdAt: asset.createdAt,
    localDateTime: asset.localDateTime,
    type: asset.type,
    deletedAt: asset.deletedAt,
    // Only the owner's own favourites (Immich sends false for a partner's or an album's).
    isFavorite: options.favorite && asset.isFavorite,
    visibility: asset.visibility,
    duration: asset.duration,
    livePhotoVideoId: asset.livePhotoVideoId,
    stackId: null,
    libraryId: null,
    width,
    height,
    isEdited: false,
  };
};

/** Immich's `SyncAssetExifV1`. */
export const mapSyncExif = (asset: AssetRecord) => {
  const exif = asset.exif;
  return {
    assetId: asset.id,
    description: exif.description ?? null,
    exifImageWidth: exif.exifImageWidth ?? null,
    exifImageHeight: exif.exifImageHeight ?? null,
    fileSizeInByte: exif.fileSizeInByte ?? null,
    orientation: exif.orientation ?? null,
    dateTimeOriginal: exif.dateTimeOriginal ?? null,
    modifyDate: exif.modifyDate ?? null,
    timeZone: exif.timeZone ?? null,
    latitude: exif.latitude ?? null,
    longitude: exif.longitude ?? null,
    projectionType: exif.projectionType ?? null,
    city: exif.city ?? null,
    state: exif.state ?? null,
    country: exif.country ?? null,
    make: exif.make ?? null,
    model: exif.model ?? null,
    lensModel: exif.lensModel ?? null,
    fNumber: exif.fNumber ?? null,
    focalLength: exif.focalLength ?? null,
    iso: exif.iso ?? null,
    exposureTime: exif.exposureTime ?? null,
    profileDescription: null,
    rating: exif.rating ?? null,
    fps: null,
  };
};

/** Immich's `SyncUserV1`. */
export const mapSyncUser = (user: UserRecord) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  avatarColor: user.avatarColor ?? null,
  deletedAt: user.deletedAt,
  hasProfileImage: user.profileImagePath !== '',
  profileChangedAt: user.updatedAt,
});

/** Immich's `SyncAuthUserV1`: the caller's own user, with what only they see (no PIN code exists here yet). */
export const mapSyncAuthUser = (user: UserRecord) => ({
  ...mapSyncUser(user),
  isAdmin: user.isAdmin,
  pinCode: null,
  oauthId: user.oauthId,
  storageLabel: user.storageLabel,
  quotaSizeInBytes: user.quotaSizeInBytes,
  quotaUsageInBytes: user.quotaUsageInBytes,
});

/** Immich's `SyncAlbumV2`. */
export const mapSyncAlbum = (album: AlbumRecord) => ({
  id: album.id,
  name: album.albumName,
  description: album.description,
  createdAt: album.createdAt,
  updatedAt: album.updatedAt,
  thumbnailAssetId: album.albumThumbnailAssetId,
  isActivityEnabled: album.isActivityEnabled,
  order: album.order,
});

/** Immich's `SyncPersonV1`. */
export const mapSyncPerson = (person: PersonRecord) => ({
  id: person.id,
  createdAt: person.createdAt,
  updatedAt: person.updatedAt,
  ownerId: person.ownerId,
  name: person.name,
  birthDate: person.birthDate,
  isHidden: person.isHidden,
  isFavorite: person.isFavorite,
  color: person.color,
  faceAssetId: person.faceAssetId,
});

/** Immich's `SyncAssetFaceV2`: a face read from the file's regions (`exif`, as Immich names that source). */
export const mapSyncFace = (face: FaceRecord) => ({
  id: face.id,
  assetId: face.assetId,
  personId: face.personId,
  imageWidth: face.imageWidth,
  imageHeight: face.imageHeight,
  boundingBoxX1: face.boundingBoxX1,
  boundingBoxY1: face.boundingBoxY1,
  boundingBoxX2: face.boundingBoxX2,
  boundingBoxY2: face.boundingBoxY2,
  sourceType: 'exif',
  isVisible: true,
  deletedAt: null,
});
