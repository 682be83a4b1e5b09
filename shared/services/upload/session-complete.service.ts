/**
 * POST /asset/upload-session/:sessionId/complete (docs/large-uploads.md): the parts become the
 * object, which is checked against the declared SHA-1 and read in ranges for its metadata; the
 * asset is recorded by the code of `POST /asset/upload`.
 */
import { createHash } from 'node:crypto';
import { accessLost, Permission } from '../../access/permission.ts';
import { type DomainError, Inaccessible, Invalid } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as uploadSessionRepo from '../../db/upload-session.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { extractMetadata, InvalidSidecarError, type Metadata } from '../../media/metadata.ts';
import { readForMetadata } from '../../media/ranged-read.ts';
import type { NewAssetFields, UploadOutcome } from '../../model/upload.ts';
import type { UploadSessionRecord } from '../../model/upload-session.ts';
import type { Auth } from '../../model/user.ts';
import { queueMediaJobs } from '../../storage/media-jobs.ts';
import { type OriginalsStore, originalsStore, type StoredObject } from '../../storage/originals.ts';
import type { ReceivedPart } from '../../storage/store.ts';
import { putFileTags, removeFileTags } from '../file-tags.ts';
import { checkImageReadable } from './form.ts';
import { recordNewAsset } from './people.ts';
import { newAsset, withVersions } from './records.ts';
import { liveSession, partBytes, partsOf } from './session.service.ts';
import { removeOriginals } from './store.ts';
import { writeAssetPostings } from './upload.service.ts';

/** The completion reads the object in ranges of this size, a few at once, hashing them in order. */
const hashRangeBytes = 8 * 1024 * 1024;
const hashRangesInFlight = 4;

/** SHA-1 (hex) of a stored object, read in ranges a few at a time and hashed in order. */
const sha1OfObject = async (store: OriginalsStore, key: string, size: number): Promise<string> => {
  const hash = createHash('sha1');
  const starts = Array.from({ length: Math.ceil(size / hashRangeBytes) }, (_, index) => index * hashRangeBytes);
  const pending = new Map<number, Promise<Buffer>>();
  const fetchRange = (index: number): void => {
    const start = starts[index];
    if (start !== undefined) pending.set(index, store.getRange(key, start, Math.min(size, start + hashRangeBytes) - 1));
  };
  for (let index = 0; index < hashRangesInFlight; index++) fetchRange(index);
  for (let index = 0; index < starts.length; index++) {
    const range = pending.get(index);
    if (!range) break;
    const bytes = await range;
    pending.delete(index);
    fetchRange(index + hashRangesInFlight);
    hash.update(bytes);
  }
  return hash.digest('hex');
};

/** The parts that are missing or of the wrong size: a clear 400 naming them (the session stays, to send them). */
const checkParts = (session: UploadSessionRecord, received: readonly ReceivedPart[]): void => {
  const sizes = new Map(received.map((part) => [part.partNumber, part.size]));
  const missing = partsOf(session)
    .map((part) => part.partNumber)
    .filter((partNumber) => sizes.get(partNumber) !== partBytes(session, partNumber));
  if (missing.length > 0) {
    const shown = missing.length > 10 ? `${missing.slice(0, 10).join(', ')}, …` : missing.join(', ');
    throw new Invalid(`Part(s) ${shown} of ${session.partChecksums.length} were not uploaded`);
  }
};

/**
 * The session's parts joined into its object. A concurrent completion of the same session may join
 * them first (its parts then vanish under this one): the object it made is the same file, taken
 * as joined, so a repeated completion never fails for being second.
 */
const joinParts = async (store: OriginalsStore, session: UploadSessionRecord): Promise<StoredObject> => {
  try {
    return await store.completeMultipart(session.key, session.uploadId, partsOf(session));
  } catch (error) {
    if (await store.exists(session.key)) return { key: session.key };
    throw error;
  }
};

/**
 * POST /asset/upload-session/:sessionId/complete. The parts become the object; the object is
 * read once to check the whole file's SHA-1, and in ranges for its metadata; the asset is
 * recorded by the upload's own code, the session ending in the same transaction. A file that is
 * not what was declared, or that no longer fits the quota, is removed with its session: nothing
 * is left. Safe to repeat (a retry after a timeout finds the object already joined). `readFields`
 * is the generation's reading of the session's text fields, as `uploadFile`'s (throws `Invalid`).
 */
export const completeUploadSession = async (
  auth: Auth,
  sessionId: string,
  readFields: (fields: Record<string, unknown>) => NewAssetFields,
): Promise<UploadOutcome> => {
  const session = await liveSession(auth, sessionId);
  const store = await originalsStore();
  const received = await store.listParts(session.key, session.uploadId);
  const joined = received.length === 0 && (await store.exists(session.key));
  if (!joined) checkParts(session, received);
  const stored: StoredObject = joined ? { key: session.key } : await joinParts(store, session);

  // The tags the file's keywords put on the asset (shared/services/file-tags.ts): taken off with the objects.
  const tagged = new Set<string>();
  const discard = async (objects: readonly StoredObject[], error: DomainError): Promise<never> => {
    await removeOriginals(objects);
    await removeFileTags(session.assetId, tagged);
    await uploadSessionRepo.remove(session);
    throw error;
  };
  const actual = await sha1OfObject(store, session.key, session.size);
  if (actual !== session.checksum) {
    return discard([stored], new Invalid(`The file's SHA-1 is ${actual}, not the ${session.checksum} its session declared`));
  }

  const head = await readForMetadata((start, end) => store.getRange(session.key, start, end), session.size);
  const sidecar = session.sidecar === null ? undefined : Buffer.from(session.sidecar);
  let metadata: Metadata;
  try {
    checkImageReadable(session.fileName, head);
    metadata = await extractMetadata(head, sidecar, session.size);
  } catch (error) {
    if (error instanceof InvalidSidecarError) return discard([stored], new Invalid(`Invalid XMP sidecar ${session.fileName}.xmp`));
    if (error instanceof Invalid) return discard([stored], error);
    throw error;
  }
  const dto = readFields(session.fields);
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Inaccessible('User not found');
  const asset = newAsset(
    auth.user.id,
    user.defaultLibraryId,
    { fileName: session.fileName, assetId: session.assetId },
    sidecar !== undefined,
    session.checksum,
    dto,
    metadata,
  );
  const objects = [stored];
  if (sidecar && asset.sidecarPath) objects.push(await store.put(asset.sidecarPath, sidecar, 'application/xml'));
  await writeAssetPostings(asset, metadata);
  await putFileTags(asset.ownerId, asset.id, metadata.keywords, tagged);
  const recorded = await recordNewAsset(withVersions(asset, objects), metadata.faces, user, {
    release: session.id,
    also: [uploadSessionRepo.uploadSessionWrites.end(session.id)],
  });
  if (!recorded.ok) {
    const { reason } = recorded;
    // A concurrent completion of this same session recorded it: the object is that asset's.
    if ((reason === 'session-ended' || reason === 'duplicate') && (await assetRepo.get(session.assetId)))
      return { id: session.assetId, duplicate: false };
    if (reason === 'duplicate') {
      // The same file completed through another session (or uploaded whole) meanwhile.
      const winner = (await assetRepo.findByChecksums(auth.user.id, [session.checksum])).get(session.checksum);
      await removeOriginals(objects);
      await removeFileTags(session.assetId, tagged);
      await uploadSessionRepo.remove(session);
      if (winner) return { id: winner, duplicate: true };
      throw new Error(`The upload session ${session.id} met a duplicate that is gone`);
    }
    if (reason === 'quota') return discard(objects, new Invalid('Quota has been exceeded!'));
    return discard(objects, accessLost(Permission.AssetUpload));
  }
  // Previews and the thumbhash: the object-created event may have come before the asset existed.
  await queueMediaJobs([{ kind: 'asset-media', assetId: session.assetId, notify: true }]);
  log.info('Upload session completed', { assetId: session.assetId, size: session.size, parts: session.partChecksums.length });
  return { id: session.assetId, duplicate: false };
};
