/**
 * The records of a new upload, built from what was read (no I/O): the asset as Immich's upload
 * and metadata jobs make it, a motion photo's hidden video asset, and the stored versions.
 */
import { randomUUID } from 'node:crypto';
import { assetTypeOf } from '../../domain/media-types.ts';
import { originalKey } from '../../domain/upload-files.ts';
import type { Metadata } from '../../media/metadata.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { NewAssetFields } from '../../model/upload.ts';
import type { StoredObject } from '../../storage/originals.ts';

/** The asset record of a new upload (not yet written), as Immich's upload and metadata jobs make it. */
export const newAsset = (
  ownerId: string,
  libraryId: string,
  file: { fileName: string; assetId?: string },
  hasSidecar: boolean,
  checksum: string,
  dto: NewAssetFields,
  metadata: Metadata,
): AssetRecord => {
  const id = file.assetId ?? randomUUID();
  const now = new Date().toISOString();
  const originalPath = originalKey(ownerId, id, file.fileName);
  // Immich's metadata extraction: the date the file says it was taken, else the client's date.
  const fileCreatedAt = metadata.takenAt?.instant ?? dto.fileCreatedAt.toISOString();
  return {
    id,
    ownerId,
    libraryId,
    deviceAssetId: dto.deviceAssetId,
    deviceId: dto.deviceId,
    type: assetTypeOf(file.fileName) ?? 'OTHER',
    originalPath,
    originalFileName: dto.filename || file.fileName,
    sidecarPath: hasSidecar ? `${originalPath}.xmp` : null,
    checksum,
    fileCreatedAt,
    fileModifiedAt: dto.fileModifiedAt.toISOString(),
    localDateTime: metadata.takenAt?.localDateTime ?? fileCreatedAt,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    isFavorite: dto.isFavorite ?? false,
    visibility: dto.visibility ?? 'timeline',
    isOffline: dto.isOffline ?? false,
    isReadOnly: dto.isReadOnly ?? false,
    isExternal: false,
    // A video's own length (its container) over the client's, as Immich's metadata job.
    duration: metadata.duration ?? (dto.duration || null),
    livePhotoVideoId: dto.livePhotoVideoId ?? null,
    thumbhash: null,
    resizePath: null,
    exif: { ...metadata.exif, dateTimeOriginal: metadata.exif.dateTimeOriginal ?? fileCreatedAt },
    personIds: [],
    faceIds: [],
    albumCount: 0,
    stack: null,
    edits: [],
    geocoded: false,
    editedFullsizePath: null,
    editedPreviewPath: null,
    editedThumbnailPath: null,
  };
};

/** The asset with the versions its objects were stored as (a versioned bucket answers one per put). */
export const withVersions = (asset: AssetRecord, stored: readonly StoredObject[]): AssetRecord => {
  const versionOf = (key: string | null) => stored.find((object) => object.key === key)?.version;
  const original = versionOf(asset.originalPath);
  const sidecar = versionOf(asset.sidecarPath);
  return { ...asset, ...(original ? { originalVersion: original } : {}), ...(sidecar ? { sidecarVersion: sidecar } : {}) };
};

/**
 * The hidden video asset of a motion photo (its embedded video) or of a live photo (`uploaded`:
 * the livePhotoData file, which keeps its name and the photo's device ids, as Immich stores it):
 * type VIDEO, not visible, the photo's dates and library, device `NONE` for a motion photo, its
 * checksum that of the video's bytes, its metadata read from the video. A motion photo's video is
 * named as Immich v3 names it, the photo's name with the video's extension (`PXL_1.MP.jpg` →
 * `PXL_1.MP.mp4`; Immich v1.100 gave it the photo's own name), so it is typed as a video wherever
 * it is served or listed. `id` is the video's when it was stored before (the ingress's livePhotoData).
 */
export const motionRecord = (
  photo: AssetRecord,
  checksum: string,
  metadata: Metadata,
  video: { fileName: string; uploaded: boolean; id?: string },
): AssetRecord => {
  const id = video.id ?? randomUUID();
  const { fileName, uploaded } = video;
  return {
    ...photo,
    id,
    type: 'VIDEO',
    originalPath: originalKey(photo.ownerId, id, fileName),
    originalFileName: fileName,
    sidecarPath: null,
    checksum,
    deviceAssetId: uploaded ? photo.deviceAssetId : 'NONE',
    deviceId: uploaded ? photo.deviceId : 'NONE',
    localDateTime: photo.fileCreatedAt,
    visibility: 'hidden',
    isFavorite: false,
    duration: metadata.duration ?? null,
    livePhotoVideoId: null,
    exif: { ...metadata.exif, dateTimeOriginal: metadata.exif.dateTimeOriginal ?? photo.fileCreatedAt },
    personIds: [],
    faceIds: [],
  };
};
