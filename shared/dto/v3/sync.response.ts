import type { AlbumRecord } from '../../model/album.ts';
import { type AssetRecord, dimensionsOf, type FaceRecord, type PhotoEdit } from '../../model/asset.ts';
import type { MemoryRecord } from '../../model/memory.ts';
import type { PersonRecord } from '../../model/person.ts';
import type { SyncEvent } from '../../model/sync.ts';
import type { UserRecord } from '../../model/user.ts';
import { checksumBase64 } from '../common/asset.response.ts';
import { mapFace } from '../common/person.response.ts';
import { mapExifV3 } from './asset.response.ts';
import type { SyncEntityType } from './sync.ts';

/** GET /sync/ack. */
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
    stackId: asset.stack?.id ?? null,
    libraryId: null,
    width,
    height,
    isEdited: asset.edits.length > 0,
  };
};

/** Immich's `SyncAssetExifV1`: the asset's EXIF as v3 answers it, and two values not read here. */
export const mapSyncExif = (asset: AssetRecord) => ({
  assetId: asset.id,
  ...mapExifV3(asset.exif),
  profileDescription: null,
  fps: null,
});

/** Immich's `SyncAssetEditV1`: one of an asset's photo edits, at its place in their order. */
export const mapSyncAssetEdit = (assetId: string, edit: PhotoEdit, sequence: number) => ({
  id: edit.id,
  assetId,
  action: edit.action,
  parameters: edit.parameters,
  sequence,
});

/** Immich's `SyncUserV1`. */
const mapSyncUser = (user: UserRecord) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  avatarColor: user.avatarColor ?? null,
  deletedAt: user.deletedAt,
  hasProfileImage: user.profileImagePath !== '',
  profileChangedAt: user.updatedAt,
});

/** Immich's `SyncAuthUserV1`: the caller's own user, with what only they see (no PIN code exists here yet). */
const mapSyncAuthUser = (user: UserRecord) => ({
  ...mapSyncUser(user),
  isAdmin: user.isAdmin,
  pinCode: null,
  oauthId: user.oauthId,
  storageLabel: user.storageLabel,
  quotaSizeInBytes: user.quotaSizeInBytes,
  quotaUsageInBytes: user.quotaUsageInBytes,
});

/** Immich's `SyncAlbumV2`. */
const mapSyncAlbum = (album: AlbumRecord) => ({
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
const mapSyncPerson = (person: PersonRecord) => ({
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

/** Immich's `SyncAssetFaceV2`: a face read from the file's regions (`exif`, as Immich names that source) or drawn by a user (`manual`). */
const mapSyncFace = (face: FaceRecord) => ({
  ...mapFace(face),
  assetId: face.assetId,
  personId: face.personId,
  sourceType: face.sourceType,
  isVisible: true,
  deletedAt: null,
});

/** Immich's `SyncMemoryV1`: unset dates are null here (the stream's rows are the table's). */
const mapSyncMemory = (memory: MemoryRecord) => ({
  id: memory.id,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
  deletedAt: null,
  ownerId: memory.ownerId,
  type: memory.type,
  data: memory.data,
  isSaved: memory.isSaved,
  memoryAt: memory.memoryAt,
  seenAt: memory.seenAt,
  showAt: memory.showAt,
  hideAt: memory.hideAt,
});

/** What a line carries, in the shape of its type (the 3.2.2 SDK's `Sync*V*`). */
const mapSyncData = (event: SyncEvent): unknown => {
  const { data } = event;
  switch (data.kind) {
    case 'asset':
      return mapSyncAsset(data.asset, { favorite: data.favorite });
    case 'exif':
      return mapSyncExif(data.asset);
    case 'user':
      return mapSyncUser(data.user);
    case 'authUser':
      return mapSyncAuthUser(data.user);
    case 'album':
      return mapSyncAlbum(data.album);
    case 'person':
      return mapSyncPerson(data.person);
    case 'face':
      return mapSyncFace(data.face);
    case 'memory':
      return mapSyncMemory(data.memory);
    case 'edit':
      return mapSyncAssetEdit(data.assetId, data.edit, data.sequence);
    case 'fields':
      return data.fields;
  }
};

/** One line of the stream: `{"type", "data", "ack"}` and a newline (Immich's `serialize`). */
export const mapSyncLine = (event: SyncEvent): string =>
  `${JSON.stringify({ type: event.type, data: mapSyncData(event), ack: event.ack })}\n`;
