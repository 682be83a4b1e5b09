import { createHash, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Auth } from '../auth/authenticate.ts';
import {
  DuplicateChecksumError,
  findByChecksums,
  fixedUploadWrites,
  PersonNameTakenError,
  QuotaExceededError,
  recordUpload,
  type AssetRecord,
  type FaceRecord,
} from '../db/asset.repository.ts';
import { findPeopleByName, foldName, type PersonRecord } from '../db/person.repository.ts';
import { postingsOf, writePostings } from '../db/term.repository.ts';
import { getUser } from '../db/user.repository.ts';
import { assetTerms } from '../domain/terms.ts';
import { assetTypeOf, extensionOf, mediaTypes, mimeTypeOf } from '../domain/media-types.ts';
import { BadRequestException } from '../http/errors.ts';
import { log } from '../http/log.ts';
import { parseMultipart, type UploadedFile } from '../http/multipart.ts';
import { HttpResponse } from '../http/response.ts';
import { parseOrThrow } from '../http/validation.ts';
import { dimensionsOf, extractMetadata, InvalidSidecarError, type Metadata } from '../media/metadata.ts';
import type { FaceRegion } from '../media/faces.ts';
import {
  CreateAssetDto,
  dateStringError,
  type AssetFileUploadResponseDto,
  type CreateAssetInput,
} from '../schemas/asset.ts';
import { originalsStore, type StoredObject } from '../storage/originals.ts';

const uploadFields = { asset: 'assetData', livePhoto: 'livePhotoData', sidecar: 'sidecarData' } as const;

/** The request body limit of POST /asset/upload: `MAX_UPLOAD_MB` (the stack sets what API Gateway + Lambda allow). */
export const uploadLimitBytes = (): number => {
  const megabytes = Number(process.env.MAX_UPLOAD_MB || 100);
  return Math.floor((Number.isFinite(megabytes) && megabytes > 0 ? megabytes : 100) * 1024 * 1024);
};

// A transaction holds at most 100 writes; an upload needs 3 plus, per person, 2 (new) or 1
// (known), plus 1 per face. 32 faces of 32 different new people fit.
const maxFacesPerAsset = Math.floor((100 - fixedUploadWrites) / 3);

/** Immich's upload filter: assets must be images or videos, sidecars `.xmp`, live-photo parts videos. */
const acceptFile = (field: string, fileName: string): void => {
  const extension = extensionOf(fileName);
  const ok =
    field === uploadFields.sidecar
      ? mediaTypes.sidecar.includes(extension)
      : field === uploadFields.livePhoto
        ? mediaTypes.video.includes(extension)
        : assetTypeOf(fileName) !== undefined;
  if (!ok) throw new BadRequestException(`Unsupported file type ${fileName}`);
};

// Image formats whose header image-size reads: a file of one of these types that it cannot read is corrupt.
const checkedImageTypes = new Set(['.jpg', '.jpeg', '.jpe', '.png', '.gif', '.webp', '.bmp', '.tif', '.tiff', '.heic', '.heif', '.avif', '.jxl', '.psd']);

const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');

/** `upload/<ownerId>/<ab>/<cd>/<assetId><ext>`: Immich's upload folder layout, ext reduced to safe characters. */
const originalKey = (ownerId: string, assetId: string, fileName: string): string => {
  const extension = extensionOf(fileName).replace(/[^a-z0-9.]/g, '');
  return `upload/${ownerId}/${assetId.slice(0, 2)}/${assetId.slice(2, 4)}/${assetId}${extension}`;
};

interface People {
  newPeople: PersonRecord[];
  existingPeople: Map<string, number>;
  faces: FaceRecord[];
}

/** Matches the file's named regions to the owner's people by name (case-insensitive); new names become new people. */
const resolvePeople = async (ownerId: string, assetId: string, regions: readonly FaceRegion[], now: string): Promise<People> => {
  if (regions.length === 0) return { newPeople: [], existingPeople: new Map(), faces: [] };
  const known = await findPeopleByName(ownerId, regions.map((region) => region.name));
  const created = new Map<string, PersonRecord>();
  const existingPeople = new Map<string, number>();
  const faces = regions.map((region, index): FaceRecord => {
    const folded = foldName(region.name);
    let personId = known.get(folded);
    if (personId) existingPeople.set(personId, (existingPeople.get(personId) ?? 0) + 1);
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

const duplicateResponse = (id: string): HttpResponse => new HttpResponse<AssetFileUploadResponseDto>({ id, duplicate: true }, { status: 200 });

/**
 * POST /asset/upload. In Immich's order: file types (as each file starts), the asset file's
 * presence, the text fields. Then: a duplicate (same SHA-1 for this owner) answers 200 with the
 * existing id and stores nothing; otherwise the original (and sidecar) are stored, and the asset,
 * its faces and people are recorded in one transaction. If recording fails, the stored objects
 * are removed again, so nothing is left half-written.
 */
export const uploadFile = async (auth: Auth, event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const form = await parseMultipart(event, {
    fileFields: Object.values(uploadFields),
    maxBytes: uploadLimitBytes(),
    accept: acceptFile,
  });
  const file = form.files[uploadFields.asset];
  if (!file || file.data.length === 0) throw new BadRequestException(`Field(s) ${uploadFields.asset} should not be empty`);
  const dateError = dateStringError(form.fields, ['fileCreatedAt', 'fileModifiedAt']);
  if (dateError) throw new BadRequestException(dateError);
  const dto = parseOrThrow(CreateAssetDto, form.fields);
  if (form.files[uploadFields.livePhoto]) throw new BadRequestException('Live photo uploads are not supported');
  const sidecar = form.files[uploadFields.sidecar];

  const checksum = sha1Hex(file.data);
  const [existing, user] = await Promise.all([findByChecksums(auth.user.id, [checksum]), getUser(auth.user.id)]);
  const duplicateId = existing.get(checksum);
  if (duplicateId) return duplicateResponse(duplicateId);
  if (!user) throw new BadRequestException('User not found');
  if (dto.libraryId && dto.libraryId !== user.defaultLibraryId) throw new BadRequestException('Not found or no asset.upload access');
  if (user.quotaSizeInBytes && user.quotaUsageInBytes + file.data.length > user.quotaSizeInBytes) {
    throw new BadRequestException('Quota has been exceeded!');
  }

  const type = assetTypeOf(file.fileName) ?? 'OTHER';
  if (type === 'IMAGE' && checkedImageTypes.has(extensionOf(file.fileName)) && !dimensionsOf(file.data)) {
    throw new BadRequestException(`Corrupt or unreadable image file ${file.fileName}`);
  }
  let metadata: Metadata;
  try {
    metadata = await extractMetadata(file.data, sidecar?.data);
  } catch (error) {
    if (error instanceof InvalidSidecarError) throw new BadRequestException(`Invalid XMP sidecar ${sidecar?.fileName ?? ''}`);
    throw error;
  }

  const asset = newAsset(auth.user.id, user.defaultLibraryId, file, sidecar, checksum, dto, metadata);
  // Search postings first: harmless if the upload then fails, and the asset never lacks them.
  await writePostings(auth.user.id, postingsOf(asset, assetTerms(asset, metadata.faces.map((face) => face.name))));
  const stored = await storeOriginals(asset, file, sidecar);
  try {
    const regions = metadata.faces.slice(0, maxFacesPerAsset);
    if (metadata.faces.length > regions.length) log.warn('Face regions over the limit were not recorded', { assetId: asset.id, faces: metadata.faces.length });
    // A concurrent upload may create a person of the same name first: read the names again and retry.
    for (let attempt = 1; ; attempt++) {
      const people = await resolvePeople(auth.user.id, asset.id, regions, asset.createdAt);
      try {
        await recordUpload({ asset, ...people, quota: { sizeInBytes: user.quotaSizeInBytes, usageInBytes: user.quotaUsageInBytes } });
        return new HttpResponse<AssetFileUploadResponseDto>({ id: asset.id, duplicate: false }, { status: 201 });
      } catch (error) {
        if (!(error instanceof PersonNameTakenError) || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    await removeOriginals(stored);
    if (error instanceof DuplicateChecksumError) {
      const winner = (await findByChecksums(auth.user.id, [checksum])).get(checksum);
      if (winner) return duplicateResponse(winner);
    }
    if (error instanceof QuotaExceededError) throw new BadRequestException('Quota has been exceeded!');
    throw error;
  }
};

const newAsset = (
  ownerId: string,
  libraryId: string,
  file: UploadedFile,
  sidecar: UploadedFile | undefined,
  checksum: string,
  dto: CreateAssetInput,
  metadata: Metadata,
): AssetRecord => {
  const id = randomUUID();
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
    sidecarPath: sidecar ? `${originalPath}.xmp` : null,
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
    duration: dto.duration || null,
    livePhotoVideoId: null,
    thumbhash: null,
    resizePath: null,
    exif: { ...metadata.exif, dateTimeOriginal: metadata.exif.dateTimeOriginal ?? fileCreatedAt },
    personIds: [],
    faceIds: [],
    albumCount: 0,
  };
};

const storeOriginals = async (asset: AssetRecord, file: UploadedFile, sidecar: UploadedFile | undefined): Promise<StoredObject[]> => {
  const store = await originalsStore();
  const stored: StoredObject[] = [];
  try {
    stored.push(await store.put(asset.originalPath, file.data, mimeTypeOf(file.fileName)));
    if (sidecar && asset.sidecarPath) stored.push(await store.put(asset.sidecarPath, sidecar.data, 'application/xml'));
    return stored;
  } catch (error) {
    await removeOriginals(stored);
    throw error;
  }
};

const removeOriginals = async (stored: readonly StoredObject[]): Promise<void> => {
  if (stored.length === 0) return;
  try {
    await (await originalsStore()).delete(stored);
  } catch (error) {
    // Logged with the keys so an operator can remove them; the request still reports its own error.
    log.error('Could not remove stored originals after a failed upload', { keys: stored.map((object) => object.key), error: String(error) });
  }
};
