import { createHash, randomUUID } from 'node:crypto';
import { Permission, requireLibrary } from '../access/access.ts';
import { Inaccessible, Invalid } from '../core/errors.ts';
import { log } from '../core/log.ts';
import {
  DuplicateChecksumError,
  findByChecksums,
  fixedUploadWrites,
  type NewUpload,
  PersonNameTakenError,
  QuotaExceededError,
  recordUpload,
} from '../db/asset.repository.ts';
import { findPeopleByName } from '../db/person.repository.ts';
import { postingsOf, writePostings } from '../db/term.repository.ts';
import { getUser } from '../db/user.repository.ts';
import { assetTypeOf, extensionOf, mimeTypeOf } from '../domain/media-types.ts';
import { assetTerms } from '../domain/terms.ts';
import { originalKey, uploadFields } from '../domain/upload-files.ts';
import type { FaceRegion } from '../media/faces.ts';
import { dimensionsOf, extractMetadata, InvalidSidecarError, type Metadata } from '../media/metadata.ts';
import { motionVideoOf } from '../media/motion-photo.ts';
import type { AssetRecord, FaceRecord } from '../model/asset.ts';
import { foldName, type PersonRecord } from '../model/person.ts';
import type { UploadedFile } from '../model/upload.ts';
import type { Auth } from '../model/user.ts';
import { type AssetFileUploadResponseDto, CreateAssetDto, type CreateAssetInput, dateStringError } from '../schemas/asset.ts';
import { parseOrThrow } from '../schemas/validate.ts';
import { originalsStore, type StoredObject } from '../storage/originals.ts';

// A transaction holds at most 100 writes; an upload needs 7 (fixedUploadWrites) plus, per person,
// 2 (new) or 1 (known), plus 1 per face. 31 faces of 31 different new people fit.
const maxFacesPerAsset = Math.floor((100 - fixedUploadWrites) / 3);

// Image formats whose header image-size reads: a file of one of these types that it cannot read is corrupt.
const checkedImageTypes = new Set([
  '.jpg',
  '.jpeg',
  '.jpe',
  '.png',
  '.gif',
  '.webp',
  '.bmp',
  '.tif',
  '.tiff',
  '.heic',
  '.heif',
  '.avif',
  '.jxl',
  '.psd',
]);

/** An image of a type whose header image-size reads, and which it cannot read, is corrupt: a 400. `data` may be the file's start. */
export const checkImageReadable = (fileName: string, data: Buffer): void => {
  if (assetTypeOf(fileName) === 'IMAGE' && checkedImageTypes.has(extensionOf(fileName)) && !dimensionsOf(data)) {
    throw new Invalid(`Corrupt or unreadable image file ${fileName}`);
  }
};

const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

interface People {
  newPeople: PersonRecord[];
  existingPeople: Set<string>;
  faces: FaceRecord[];
}

/** Matches the file's named regions to the owner's people by name (case-insensitive); new names become new people. */
const resolvePeople = async (ownerId: string, assetId: string, regions: readonly FaceRegion[], now: string): Promise<People> => {
  if (regions.length === 0) return { newPeople: [], existingPeople: new Set(), faces: [] };
  const known = await findPeopleByName(
    ownerId,
    regions.map((region) => region.name),
  );
  const created = new Map<string, PersonRecord>();
  const existingPeople = new Set<string>();
  const faces = regions.map((region, index): FaceRecord => {
    const folded = foldName(region.name);
    let personId = known.get(folded);
    if (personId) existingPeople.add(personId);
    else {
      let person = created.get(folded);
      if (!person) {
        person = {
          id: randomUUID(),
          ownerId,
          name: region.name.trim(),
          birthDate: null,
          isHidden: false,
          thumbnailPath: '',
          faceAssetId: assetId,
          faceCount: 0,
          createdAt: now,
          updatedAt: now,
        };
        created.set(folded, person);
      }
      personId = person.id;
    }
    const { name: _name, ...box } = region;
    return { id: randomUUID(), assetId, personId, ownerId, ...box, index };
  });
  return { newPeople: [...created.values()], existingPeople, faces };
};

export interface UploadInput {
  /** The multipart form's text fields, as sent. */
  fields: Record<string, string>;
  files: Partial<Record<(typeof uploadFields)[keyof typeof uploadFields], UploadedFile>>;
}

/**
 * POST /asset/upload, once the form is read (file types were checked as each file started). In
 * Immich's order: the asset file's presence, the text fields. Then: a duplicate (same SHA-1 for
 * this owner) answers with the existing id and stores nothing; otherwise the original (and
 * sidecar) are stored, and the asset, its faces and people are recorded in one transaction. If
 * recording fails, the stored objects are removed again, so nothing is left half-written.
 */
export const uploadFile = async (auth: Auth, form: UploadInput, retried = false): Promise<AssetFileUploadResponseDto> => {
  const file = form.files[uploadFields.asset];
  if (!file || file.data.length === 0) throw new Invalid(`Field(s) ${uploadFields.asset} should not be empty`);
  const dateError = dateStringError(form.fields, ['fileCreatedAt', 'fileModifiedAt']);
  if (dateError) throw new Invalid(dateError);
  const dto = parseOrThrow(CreateAssetDto, form.fields);
  const sidecar = form.files[uploadFields.sidecar];
  // An iPhone live photo's video sent beside it (Immich's livePhotoData), else a motion photo's
  // video extracted as Immich's metadata job does: either becomes a hidden asset of its own.
  const livePhoto = form.files[uploadFields.livePhoto]?.data.length ? form.files[uploadFields.livePhoto] : undefined;

  const checksum = sha1Hex(file.data);
  const motionVideo = livePhoto?.data ?? (assetTypeOf(file.fileName) === 'IMAGE' ? motionVideoOf(file.data) : undefined);
  const motionChecksum = motionVideo ? sha1Hex(motionVideo) : undefined;
  const [existing, user] = await Promise.all([
    findByChecksums(auth.user.id, motionChecksum ? [checksum, motionChecksum] : [checksum]),
    getUser(auth.user.id),
  ]);
  const duplicateId = existing.get(checksum);
  if (duplicateId) return { id: duplicateId, duplicate: true };
  if (!user) throw new Inaccessible('User not found');
  if (dto.libraryId) requireLibrary(Permission.AssetUpload, dto.libraryId, user);
  // The motion part: the same video uploaded before (the same checksum) is linked, not stored again.
  const existingMotion = motionChecksum ? existing.get(motionChecksum) : undefined;
  const motionBytes = motionVideo && !existingMotion ? motionVideo.length : 0;
  if (user.quotaSizeInBytes && user.quotaUsageInBytes + file.data.length + motionBytes > user.quotaSizeInBytes) {
    throw new Invalid('Quota has been exceeded!');
  }

  checkImageReadable(file.fileName, file.data);
  let metadata: Metadata;
  try {
    metadata = await extractMetadata(file.data, sidecar?.data);
  } catch (error) {
    if (error instanceof InvalidSidecarError) throw new Invalid(`Invalid XMP sidecar ${sidecar?.fileName ?? ''}`);
    throw error;
  }

  const photo = newAsset(auth.user.id, user.defaultLibraryId, file, sidecar !== undefined, checksum, dto, metadata);
  const motion =
    motionVideo && motionChecksum && !existingMotion
      ? await motionAsset(photo, motionVideo, motionChecksum, livePhoto?.fileName)
      : undefined;
  const asset: AssetRecord = { ...photo, livePhotoVideoId: existingMotion ?? motion?.asset.id ?? null };
  await writeAssetPostings(asset, metadata);
  const stored = await storeOriginals(asset, file, sidecar, motion);
  const recorded = withVersions(asset, stored);
  const recordedMotion = motion ? withVersions(motion.asset, stored) : undefined;
  try {
    await recordNewAsset(recorded, metadata.faces, user.quotaSizeInBytes, recordedMotion ? { motion: recordedMotion } : {});
    return { id: asset.id, duplicate: false };
  } catch (error) {
    await removeOriginals(stored);
    if (error instanceof DuplicateChecksumError) {
      const winner = (await findByChecksums(auth.user.id, [checksum])).get(checksum);
      if (winner) return { id: winner, duplicate: true };
      // Another upload stored the same motion video meanwhile: once more, linking to it.
      if (motion && !retried) return uploadFile(auth, form, true);
    }
    if (error instanceof QuotaExceededError) throw new Invalid('Quota has been exceeded!');
    throw error;
  }
};

/**
 * Records a new asset (its file already stored) with its faces and their people, in one
 * transaction (shared/db/asset.repository.ts `recordUpload`), with `also` in the same
 * transaction. A concurrent upload may create a person of the same name first: the names are
 * read again and it is tried once more. Throws `DuplicateChecksumError` and `QuotaExceededError`
 * for the caller to answer.
 */
export const recordNewAsset = async (
  asset: AssetRecord,
  faceRegions: readonly FaceRegion[],
  quota: number | null,
  options: Pick<NewUpload, 'motion' | 'also'>,
): Promise<void> => {
  const regions = faceRegions.slice(0, maxFacesPerAsset);
  if (faceRegions.length > regions.length)
    log.warn('Face regions over the limit were not recorded', { assetId: asset.id, faces: faceRegions.length });
  for (let attempt = 1; ; attempt++) {
    const people = await resolvePeople(asset.ownerId, asset.id, regions, asset.createdAt);
    try {
      await recordUpload({ asset, ...people, quota, ...options });
      return;
    } catch (error) {
      if (!(error instanceof PersonNameTakenError) || attempt >= 3) throw error;
    }
  }
};

/** Search postings first: harmless if the upload then fails, and the asset never lacks them. */
export const writeAssetPostings = (asset: AssetRecord, metadata: Metadata): Promise<void> =>
  writePostings(
    asset.ownerId,
    postingsOf(
      asset,
      assetTerms(
        asset,
        metadata.faces.map((face) => face.name),
      ),
    ),
  );

/** The asset record of a new upload (not yet written), as Immich's upload and metadata jobs make it. */
export const newAsset = (
  ownerId: string,
  libraryId: string,
  file: { fileName: string; assetId?: string },
  hasSidecar: boolean,
  checksum: string,
  dto: CreateAssetInput,
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
    originalFileName: file.fileName,
    sidecarPath: hasSidecar ? `${originalPath}.xmp` : null,
    checksum,
    fileCreatedAt,
    fileModifiedAt: dto.fileModifiedAt.toISOString(),
    localDateTime: metadata.takenAt?.localDateTime ?? fileCreatedAt,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    isFavorite: dto.isFavorite ?? false,
    isArchived: dto.isArchived ?? false,
    isVisible: dto.isVisible ?? true,
    isOffline: dto.isOffline ?? false,
    isReadOnly: dto.isReadOnly ?? false,
    isExternal: false,
    // A video's own length (its container) over the client's, as Immich's metadata job.
    duration: metadata.duration ?? (dto.duration || null),
    livePhotoVideoId: null,
    thumbhash: null,
    resizePath: null,
    exif: { ...metadata.exif, dateTimeOriginal: metadata.exif.dateTimeOriginal ?? fileCreatedAt },
    personIds: [],
    faceIds: [],
    albumCount: 0,
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
 * The hidden video asset of a motion photo, as Immich v1.100 makes it: type VIDEO, not visible,
 * the photo's file name, dates and library, device `NONE`, its checksum that of the video's bytes,
 * its metadata read from the video itself; stored as `upload/<owner>/<ab>/<cd>/<id>.mp4`.
 */
/**
 * The hidden video asset of a motion photo (its embedded MP4) or of a live photo (`fileName`: the
 * livePhotoData file, which keeps its name and the photo's device ids, as Immich stores it).
 */
const motionAsset = async (
  photo: AssetRecord,
  video: Buffer,
  checksum: string,
  fileName?: string,
): Promise<{ asset: AssetRecord; data: Buffer; contentType: string }> => {
  const id = randomUUID();
  const metadata = await extractMetadata(video);
  return {
    data: video,
    contentType: fileName ? mimeTypeOf(fileName) : 'video/mp4',
    asset: {
      ...photo,
      id,
      type: 'VIDEO',
      originalPath: originalKey(photo.ownerId, id, fileName ?? 'motion.mp4'),
      ...(fileName ? { originalFileName: fileName } : {}),
      sidecarPath: null,
      checksum,
      deviceAssetId: fileName ? photo.deviceAssetId : 'NONE',
      deviceId: fileName ? photo.deviceId : 'NONE',
      localDateTime: photo.fileCreatedAt,
      isVisible: false,
      isFavorite: false,
      isArchived: false,
      duration: metadata.duration ?? null,
      livePhotoVideoId: null,
      exif: { ...metadata.exif, dateTimeOriginal: metadata.exif.dateTimeOriginal ?? photo.fileCreatedAt },
      personIds: [],
      faceIds: [],
    },
  };
};

const storeOriginals = async (
  asset: AssetRecord,
  file: UploadedFile,
  sidecar: UploadedFile | undefined,
  motion?: { asset: AssetRecord; data: Buffer; contentType: string },
): Promise<StoredObject[]> => {
  const store = await originalsStore();
  const stored: StoredObject[] = [];
  try {
    stored.push(await store.put(asset.originalPath, file.data, mimeTypeOf(file.fileName)));
    if (sidecar && asset.sidecarPath) stored.push(await store.put(asset.sidecarPath, sidecar.data, 'application/xml'));
    if (motion) stored.push(await store.put(motion.asset.originalPath, motion.data, motion.contentType));
    return stored;
  } catch (error) {
    await removeOriginals(stored);
    throw error;
  }
};

export const removeOriginals = async (stored: readonly StoredObject[]): Promise<void> => {
  if (stored.length === 0) return;
  try {
    await (await originalsStore()).delete(stored);
  } catch (error) {
    // Logged with the keys so an operator can remove them; the request still reports its own error.
    log.error('Could not remove stored originals after a failed upload', {
      keys: stored.map((object) => object.key),
      error: String(error),
    });
  }
};
