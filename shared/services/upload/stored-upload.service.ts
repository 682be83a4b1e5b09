/**
 * The upload of a file that is already stored at its final key (docs/large-uploads.md): the
 * ingress streamed it to the originals bucket, or an upload session's parts were joined. It is
 * recorded by the steps every upload shares (services/upload/admit.ts), in Immich's order, its
 * metadata read in ranges; whenever it is refused, the stored objects are removed again, so nothing
 * is left. Also here: what the ingress asks before it takes a body (Immich's early duplicate
 * answer, the room left in the quota) and the upload routes' rule.
 */
import { createHash } from 'node:crypto';
import { accessLost, Permission } from '../../access/permission.ts';
import { DomainError, Invalid } from '../../core/errors.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { assetTypeOf, mimeTypeOf } from '../../domain/media-types.ts';
import { quotaCheckOf } from '../../domain/quota.ts';
import { checksumHex } from '../../domain/search.ts';
import { originalKey } from '../../domain/upload-files.ts';
import { motionVideoExtension, motionVideoOf } from '../../media/motion-photo.ts';
import { readForMetadata } from '../../media/ranged-read.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { NewAssetFields, UploadOutcome } from '../../model/upload.ts';
import type { Auth } from '../../model/user.ts';
import { queueMediaJobs } from '../../storage/media-jobs.ts';
import { type OriginalsStore, originalsStore, type StoredObject } from '../../storage/originals.ts';
import { admitUpload, type Commit, commitUpload, linkLivePhotoVideo, readUploadMetadata, stemOf, writeAssetPostings } from './admit.ts';
import { checkImageReadable, requireAssetFile } from './form.ts';
import { motionRecord, newAsset, withVersions } from './records.ts';
import { removeOriginals } from './store.ts';

export { requireUploadAllowed, uploadRule } from '../../access/upload-access.ts';

/** A file already written to the originals store at `originalKey(ownerId, assetId, fileName)`. */
export interface StoredFile {
  fileName: string;
  key: string;
  /** The version a versioned bucket gave it (an undo removes that version for good). */
  version?: string;
  size: number;
  /** SHA-1 of its bytes, lower-case hex. */
  checksum: string;
  assetId: string;
}

/**
 * What a stored upload brings: the file, the form's text fields as sent and the generation's
 * reading of them (`readUploadFieldsV1` / `readUploadFieldsV3`), the XMP sidecar, and v1.100's
 * `livePhotoData` (also stored already).
 */
export interface StoredUploadInput<F extends Record<string, unknown> = Record<string, string>> {
  file: StoredFile;
  fields: F;
  readFields: (fields: F) => NewAssetFields;
  sidecar?: { fileName: string; data: Buffer } | undefined;
  livePhoto?: StoredFile | undefined;
}

/** How an upload session's completion records its file (services/upload/session-complete.service.ts). */
export interface StoredUploadOptions {
  /** The upload session whose hold the file takes, and the writes that end it, in the asset's transaction. */
  release?: string;
  also?: Commit['also'];
  /** Called after the objects are removed for a refusal (the session goes with them). */
  discard?: () => Promise<void>;
  /** A fault that is not a refusal (a store or table error) keeps the objects, for the caller to try again. */
  keepOnFault?: boolean;
}

/** Largest image read whole to find a motion photo's embedded video (motion photos are a few to 30 MB). */
const wholeImageBytes = 32 * 1024 * 1024;

/**
 * The seam for a motion photo's embedded video in a stored file (Immich's metadata job extracts
 * it): an image up to `wholeImageBytes` is read whole and searched as `uploadFile` searches the
 * request's bytes. The one call site for a ranged search (shared/media/motion-photo.ts).
 */
const storedMotionVideo = async (store: OriginalsStore, file: StoredFile): Promise<Buffer | undefined> => {
  if (assetTypeOf(file.fileName) !== 'IMAGE' || file.size > wholeImageBytes || file.size === 0) return undefined;
  return motionVideoOf(await store.getRange(file.key, 0, file.size - 1));
};

const sha1Hex = (data: Buffer): string => createHash('sha1').update(data).digest('hex');
const objectOf = (file: StoredFile): StoredObject => ({ key: file.key, ...(file.version ? { version: file.version } : {}) });
const metadataOf = async (store: OriginalsStore, file: StoredFile, sidecar?: StoredUploadInput['sidecar']) => {
  const head = await readForMetadata((start, end) => store.getRange(file.key, start, end), file.size);
  checkImageReadable(file.fileName, head);
  return { head, read: () => readUploadMetadata(head, sidecar, file.size) };
};

/**
 * Records an upload whose file (and v1.100's live-photo video) is stored already: the checks of
 * `POST /asset/upload` in Immich's order (the file's presence, the fields, a duplicate, the
 * metadata keys, the user, the library, the quota, a readable image, v3's live-photo video), its
 * metadata read in ranges, the sidecar stored, and the asset recorded with its people, tags and
 * motion part; then its media job queued. Refused (a 4xx, a duplicate) or failed, every object it
 * was given or stored is removed (unless `keepOnFault` and the failure is not a refusal).
 */
export const recordStoredUpload = async <F extends Record<string, unknown>>(
  auth: Auth,
  input: StoredUploadInput<F>,
  options: StoredUploadOptions = {},
): Promise<UploadOutcome> => {
  const objects: StoredObject[] = [objectOf(input.file), ...(input.livePhoto ? [objectOf(input.livePhoto)] : [])];
  const discard = async (): Promise<void> => {
    await removeOriginals(objects);
    await options.discard?.();
  };
  try {
    const outcome = await record(auth, input, options, objects);
    if (outcome.duplicate) await discard();
    else await queueMediaJobs([{ kind: 'asset-media', assetId: outcome.id, notify: true }]);
    return outcome;
  } catch (error) {
    if (error instanceof DomainError || !options.keepOnFault) await discard();
    throw error;
  }
};

const record = async <F extends Record<string, unknown>>(
  auth: Auth,
  input: StoredUploadInput<F>,
  options: StoredUploadOptions,
  objects: StoredObject[],
): Promise<UploadOutcome> => {
  const { file, sidecar } = input;
  requireAssetFile(file.size);
  const dto = input.readFields(input.fields);
  if (file.key !== originalKey(auth.user.id, file.assetId, file.fileName))
    throw new Error(`The stored file ${file.key} is not at its asset's key`);
  const store = await originalsStore();
  // v3's apps name the live photo's video they uploaded first: then the file's own is not looked for.
  const livePhoto = dto.livePhotoVideoId ? undefined : input.livePhoto;
  const embedded = dto.livePhotoVideoId || livePhoto ? undefined : await storedMotionVideo(store, file);
  const motionSum = livePhoto ? livePhoto.checksum : embedded ? sha1Hex(embedded) : undefined;
  const motionSize = livePhoto?.size ?? embedded?.length ?? 0;
  const admitted = await admitUpload(
    auth,
    dto,
    file.checksum,
    motionSum ? { checksum: motionSum, size: motionSize } : undefined,
    file.size,
    options.release,
  );
  // The same file recorded by a concurrent completion of this very upload: its objects are that asset's.
  if (admitted.duplicateId === file.assetId) return { id: file.assetId, duplicate: false };
  if (admitted.duplicateId !== undefined) return { id: admitted.duplicateId, duplicate: true };
  const { user, existingMotion } = admitted;

  const photoMeta = await metadataOf(store, file, sidecar);
  if (dto.livePhotoVideoId) await linkLivePhotoVideo(auth, dto.livePhotoVideoId);
  const metadata = await photoMeta.read();
  const photo = newAsset(auth.user.id, user.defaultLibraryId, file, sidecar !== undefined, file.checksum, dto, metadata);

  let motion: AssetRecord | undefined;
  if (motionSum && !existingMotion && livePhoto) {
    const video = await metadataOf(store, livePhoto);
    motion = motionRecord(photo, motionSum, await video.read(), { fileName: livePhoto.fileName, uploaded: true, id: livePhoto.assetId });
    if (motion.originalPath !== livePhoto.key) throw new Error(`The stored live photo video ${livePhoto.key} is not at its asset's key`);
  } else if (motionSum && !existingMotion && embedded) {
    const fileName = `${stemOf(file.fileName)}${motionVideoExtension(embedded)}`;
    motion = motionRecord(photo, motionSum, await readUploadMetadata(embedded, undefined), { fileName, uploaded: false });
    objects.push(await store.put(motion.originalPath, embedded, mimeTypeOf(fileName)));
  }
  // A live photo's video not needed (linked by id, or the same video recorded before) is not kept.
  if (input.livePhoto && !motion) await removeOriginals([objectOf(input.livePhoto)]);

  const asset: AssetRecord = { ...photo, livePhotoVideoId: dto.livePhotoVideoId ?? existingMotion ?? motion?.id ?? null };
  if (sidecar && asset.sidecarPath) objects.push(await store.put(asset.sidecarPath, sidecar.data, 'application/xml'));
  await writeAssetPostings(asset, metadata);
  const outcome = await commitUpload({
    asset: withVersions(asset, objects),
    faces: metadata.faces,
    keywords: metadata.keywords,
    owner: user,
    motion: motion ? withVersions(motion, objects) : undefined,
    metadata: dto.metadata,
    release: options.release,
    also: options.also,
    // The objects go in recordStoredUpload, as for every refusal (not on a fault with `keepOnFault`).
    undo: async () => {},
  });
  if (outcome === 'ok') return { id: asset.id, duplicate: false };
  if (outcome === 'session-ended') throw accessLost(Permission.AssetUpload);
  // The same file recorded meanwhile by another upload (or its motion video: a retry stores it again).
  const winner = (await assetRepo.findByChecksums(auth.user.id, [file.checksum])).get(file.checksum);
  if (winner) return { id: winner, duplicate: true };
  throw new Invalid('The same file was being uploaded at the same time; send it again');
};

/**
 * Immich's early duplicate answer (`x-immich-checksum`, hex or base64 SHA-1): the id of the
 * caller's asset with that checksum, before any body is read. A header that is no SHA-1 answers
 * nothing, and the upload goes on (Immich's query of it finds nothing).
 */
export const declaredDuplicate = async (auth: Auth, header: string | undefined): Promise<string | undefined> => {
  const value = header?.trim();
  if (!value) return undefined;
  const checksum = checksumHex(value);
  if (!/^[0-9a-f]{40}$/.test(checksum)) return undefined;
  return (await assetRepo.findByChecksums(auth.user.id, [checksum])).get(checksum);
};

/** The bytes the caller may still store: their quota less their usage and their upload sessions' holds; Infinity without a quota. */
export const uploadRoom = async (auth: Auth): Promise<number> => {
  const user = await userRepo.get(auth.user.id);
  if (!user) return 0;
  const check = quotaCheckOf(user);
  if (check.quota === null) return Number.POSITIVE_INFINITY;
  return Math.max(0, check.quota - user.quotaUsageInBytes - check.held);
};
