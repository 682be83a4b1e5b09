/**
 * Upload sessions: large files straight into the store, as multipart uploads whose parts the
 * client sends itself (docs/large-uploads.md). Deployed, no file byte passes through a Lambda
 * function on its way in (S3's presigned UploadPart, each part checked against its SHA-1);
 * the completion reads the object once, to check the whole file's SHA-1 (which S3 cannot: its
 * checksum of a multipart object is composite), and in ranges for its metadata; then the asset
 * is recorded by the same code as `POST /asset/upload`. The completion is in
 * services/upload/session-complete.service.ts: the routes that never read a file do not bundle the
 * metadata readers.
 */
import { createHash, randomUUID } from 'node:crypto';
import { requireLibrary } from '../../access/library-access.ts';
import { Permission } from '../../access/permission.ts';
import { requireUploadPart, requireUploadSession } from '../../access/sessions.ts';
import { uploadPartSignature } from '../../core/crypto.ts';
import { uploadLimitBytes } from '../../core/env.ts';
import { Conflict, Inaccessible, Invalid } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import * as assetRepo from '../../db/asset.repository.ts';
import * as uploadSessionRepo from '../../db/upload-session.repository.ts';
import * as userRepo from '../../db/user.repository.ts';
import { mimeTypeOf } from '../../domain/media-types.ts';
import { expiredHolds, fitsQuota, liveHolds, quotaCheckOf } from '../../domain/quota.ts';
import { checksumHex } from '../../domain/search.ts';
import { acceptUploadFile, originalKey, uploadFields } from '../../domain/upload-files.ts';
import { limits } from '../../model/limits.ts';
import type { UploadOutcome } from '../../model/upload.ts';
import type { NewUploadSession, OpenUploadSession, PartTarget, UploadSessionRecord } from '../../model/upload-session.ts';
import type { Auth, QuotaCheck, UserRecord } from '../../model/user.ts';
import { linkSecret } from '../../storage/link-secret.ts';
import { type OriginalsStore, originalsStore } from '../../storage/originals.ts';
import type { PartChecksum, ReceivedPart } from '../../storage/store.ts';
import { endSession } from './session-end.ts';

/** A session lives a day: the bucket's lifecycle rule aborts its multipart upload after the same day. */
export const sessionLifetimeSeconds = 24 * 3600;
/** A part URL is good for at most six hours (a fresh one comes with every GET of the session). */
const partUrlSeconds = 6 * 3600;

export const partsOf = (session: Pick<UploadSessionRecord, 'partChecksums'>): PartChecksum[] =>
  session.partChecksums.map((sha1, index) => ({ partNumber: index + 1, sha1 }));

/** The size part `partNumber` must have: `partSize`, but the last holds the rest. */
export const partBytes = (session: Pick<UploadSessionRecord, 'size' | 'partSize' | 'partChecksums'>, partNumber: number): number =>
  partNumber < session.partChecksums.length ? session.partSize : session.size - session.partSize * (session.partChecksums.length - 1);

const partTargets = async (
  session: UploadSessionRecord,
  store: OriginalsStore,
  received: readonly ReceivedPart[],
): Promise<PartTarget[]> => {
  const done = new Set(received.filter((part) => part.size === partBytes(session, part.partNumber)).map((part) => part.partNumber));
  const remaining = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
  const seconds = Math.max(1, Math.min(partUrlSeconds, remaining));
  const secret = store.partUrl ? undefined : await linkSecret();
  const expires = Math.floor(Date.now() / 1000) + seconds;
  return Promise.all(
    partsOf(session).map(async (part): Promise<PartTarget> => {
      const uploaded = done.has(part.partNumber);
      if (store.partUrl)
        return { ...(await store.partUrl(session.key, session.uploadId, part, seconds)), partNumber: part.partNumber, uploaded };
      // The local store: the server takes the part itself, at a URL it signed.
      const signature = uploadPartSignature(secret ?? '', session.id, part.partNumber, part.sha1, expires);
      return {
        partNumber: part.partNumber,
        url: `/api/asset/upload-session/${session.id}/part/${part.partNumber}?expires=${expires}&signature=${signature}`,
        headers: { 'x-amz-checksum-sha1': part.sha1 },
        uploaded,
      };
    }),
  );
};

const opened = async (
  session: UploadSessionRecord,
  store: OriginalsStore,
  received: readonly ReceivedPart[],
): Promise<OpenUploadSession> => ({
  session,
  parts: await partTargets(session, store, received),
});

/**
 * The room a new session needs on the owner as read: at most `limits.openUploadSessions` open,
 * and its declared size within the quota beside their usage and the other sessions' holds.
 */
const roomFor = (user: UserRecord, size: number): QuotaCheck => {
  if (liveHolds(user).length >= limits.openUploadSessions) {
    throw new Invalid(`At most ${limits.openUploadSessions} upload sessions may be open at once; complete or delete one first`);
  }
  const check = quotaCheckOf(user);
  if (!fitsQuota(user, check, size)) throw new Invalid('Quota has been exceeded!');
  return check;
};

/**
 * POST /asset/upload-session. Checked as `POST /asset/upload` checks a file, before anything is
 * sent: its type, its fields, a duplicate (answered at once, `{id, duplicate: true}`), the library
 * and the quota, which the session's declared size then holds until it ends (so are the open
 * sessions counted: docs/large-uploads.md). Then the multipart upload is started on the asset's
 * final key.
 */
export const createUploadSession = async (auth: Auth, input: NewUploadSession): Promise<OpenUploadSession | UploadOutcome> => {
  acceptUploadFile(uploadFields.asset, input.fileName);
  const checksum = checksumHex(input.checksum);
  const [existing, read] = await Promise.all([assetRepo.findByChecksums(auth.user.id, [checksum]), userRepo.get(auth.user.id)]);
  const duplicateId = existing.get(checksum);
  if (duplicateId) return { id: duplicateId, duplicate: true };
  if (!read) throw new Inaccessible('User not found');
  if (input.libraryId) requireLibrary(Permission.AssetUpload, input.libraryId, read);
  let user = read;
  let check = roomFor(user, input.size);

  const store = await originalsStore();
  // Locally the server takes each part itself, within its own upload limit (MAX_UPLOAD_MB).
  const largestPart = Math.min(input.partSize, input.size);
  if (!store.partUrl && largestPart > uploadLimitBytes()) {
    throw new Invalid(`partSize must be at most ${uploadLimitBytes()} bytes here: the server takes each part within its upload limit`);
  }
  const assetId = randomUUID();
  const key = originalKey(auth.user.id, assetId, input.fileName);
  const uploadId = await store.createMultipart(key, mimeTypeOf(input.fileName), input.size);
  const now = Date.now();
  const { fileName, size, partSize, partChecksums, sidecarData, checksum: _declared, ...fields } = input;
  const session: UploadSessionRecord = {
    id: randomUUID(),
    ownerId: auth.user.id,
    assetId,
    key,
    uploadId,
    fileName,
    size,
    checksum,
    partSize,
    partChecksums,
    // Kept as sent (dates as their strings): the completion validates them again.
    fields: Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value])),
    sidecar: sidecarData ?? null,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + sessionLifetimeSeconds * 1000).toISOString(),
    ttl: Math.floor(now / 1000) + sessionLifetimeSeconds,
  };
  try {
    for (let attempt = 1; ; attempt++) {
      const expired = expiredHolds(user);
      if ((await uploadSessionRepo.create(session, user, check, expired)).ok) break;
      if (attempt >= 12) throw new Conflict('Another upload changed your storage meanwhile; try again');
      // Another session or upload of the owner meanwhile (or a user stored before holds): read again.
      if (Object.keys(user.uploadSessions).length === 0) await uploadSessionRepo.ensureHoldsMap(user.id);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      const current = await userRepo.get(auth.user.id);
      if (!current || current.deletedAt !== null) throw new Inaccessible('User not found');
      user = current;
      check = roomFor(user, input.size);
    }
  } catch (error) {
    await store.abortMultipart(key, uploadId);
    throw error;
  }
  return opened(session, store, []);
};

/** The caller's live session; an expired one is ended here (its parts dropped) and refused. */
export const liveSession = async (auth: Auth, sessionId: string): Promise<UploadSessionRecord> => {
  const session = await requireUploadSession(auth, sessionId);
  if (Date.parse(session.expiresAt) <= Date.now()) {
    await endSession(session);
    throw new Invalid('Upload session expired');
  }
  return session;
};

/** GET /asset/upload-session/:sessionId: which parts the store holds, and fresh URLs for all (to resume). */
export const getUploadSessionStatus = async (auth: Auth, sessionId: string): Promise<OpenUploadSession> => {
  const session = await liveSession(auth, sessionId);
  const store = await originalsStore();
  return opened(session, store, await store.listParts(session.key, session.uploadId));
};

/** DELETE /asset/upload-session/:sessionId: the parts are dropped and the session ends. */
export const deleteUploadSessionOf = async (auth: Auth, sessionId: string): Promise<void> => {
  await endSession(await requireUploadSession(auth, sessionId));
};

/**
 * PUT of a local part URL (no S3 locally): the URL's signature, its expiry, the part's size and
 * its SHA-1 are checked as S3 checks a presigned UploadPart's, then the part is stored.
 */
export const acceptLocalPart = async (
  part: { sessionId: string; partNumber: number; expires: string; signature: string; sha1Header: string | undefined },
  body: Buffer,
): Promise<void> => {
  const { session, declared } = await requireUploadPart(part, await linkSecret());
  if (part.sha1Header !== declared) throw new Invalid('x-amz-checksum-sha1 must be the SHA-1 the part was declared with');
  if (body.length !== partBytes(session, part.partNumber)) {
    throw new Invalid(`Part ${part.partNumber} must be ${partBytes(session, part.partNumber)} bytes, not ${body.length}`);
  }
  if (createHash('sha1').update(body).digest('base64') !== declared) throw new Invalid('The part does not match its SHA-1');
  const store = await originalsStore();
  if (!store.putPart) throw new Invalid('This store takes parts directly');
  try {
    await store.putPart(session.uploadId, part.partNumber, body);
  } catch (error) {
    log.warn('A part was refused', { sessionId: session.id, error: String(error) });
    throw new Invalid('The upload session has ended');
  }
};
