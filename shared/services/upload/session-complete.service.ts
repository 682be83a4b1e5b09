/**
 * POST /asset/upload-session/:sessionId/complete (docs/large-uploads.md): the parts become the
 * object, which is checked against the declared SHA-1; then it is recorded as every stored upload
 * is (services/upload/stored-upload.service.ts: its metadata read in ranges).
 */
import { createHash } from 'node:crypto';
import { Invalid } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import * as uploadSessionRepo from '../../db/upload-session.repository.ts';
import type { NewAssetFields, UploadOutcome } from '../../model/upload.ts';
import type { UploadSessionRecord } from '../../model/upload-session.ts';
import type { Auth } from '../../model/user.ts';
import { type OriginalsStore, originalsStore, type StoredObject } from '../../storage/originals.ts';
import type { ReceivedPart } from '../../storage/store.ts';
import { liveSession, partBytes, partsOf } from './session.service.ts';
import { removeOriginals } from './store.ts';
import { recordStoredUpload } from './stored-upload.service.ts';

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
 * read once to check the whole file's SHA-1; then it is recorded as every stored upload is
 * (services/upload/stored-upload.service.ts), the session ending in the asset's transaction. A file
 * that is not what was declared, or that is refused (no longer fits the quota, a duplicate recorded
 * meanwhile), is removed with its session: nothing is left. Safe to repeat (a retry after a timeout
 * finds the object already joined; a fault keeps the object for it). `readFields` is the
 * generation's reading of the session's text fields, as `uploadFile`'s (throws `Invalid`).
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

  const actual = await sha1OfObject(store, session.key, session.size);
  if (actual !== session.checksum) {
    await removeOriginals([stored]);
    await uploadSessionRepo.remove(session);
    throw new Invalid(`The file's SHA-1 is ${actual}, not the ${session.checksum} its session declared`);
  }
  const outcome = await recordStoredUpload(
    auth,
    {
      file: {
        fileName: session.fileName,
        key: session.key,
        ...(stored.version ? { version: stored.version } : {}),
        size: session.size,
        checksum: session.checksum,
        assetId: session.assetId,
      },
      fields: session.fields,
      readFields,
      sidecar: session.sidecar === null ? undefined : { fileName: `${session.fileName}.xmp`, data: Buffer.from(session.sidecar) },
    },
    {
      release: session.id,
      also: [uploadSessionRepo.uploadSessionWrites.end(session.id)],
      discard: () => uploadSessionRepo.remove(session),
      keepOnFault: true,
    },
  );
  log.info('Upload session completed', { assetId: outcome.id, size: session.size, parts: session.partChecksums.length });
  return outcome;
};
