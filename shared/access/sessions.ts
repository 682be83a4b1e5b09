/**
 * Access to the caller's own sessions and upload sessions: a module of its own, as each resource\'s, so that only
 * the functions that need these repositories bundle them (docs/benchmarks.md).
 */
import { isUploadPartSignature } from '../core/crypto.ts';
import { Forbidden, Invalid } from '../core/errors.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as uploadSessionRepo from '../db/upload-session.repository.ts';
import * as userRepo from '../db/user.repository.ts';
import type { SessionListing } from '../model/session.ts';
import type { UploadSessionRecord } from '../model/upload-session.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';

/** The caller's session (the sync endpoints'): an API key is refused with Immich's 403. Returns the session's hash. */
export const requireSession = (auth: Auth): string => {
  if (!auth.sessionHash) throw new Forbidden('Sync endpoints cannot be used with API keys');
  return auth.sessionHash;
};

/** A caller signed in with a session (v3's session routes): an API key gets Immich's 400. Returns the session's hash. */
export const requireSessionToken = (auth: Auth): string => {
  if (!auth.sessionHash) throw new Invalid('This endpoint can only be used with a session token');
  return auth.sessionHash;
};

/** One of the caller's own sessions (Immich's authDevice.delete). */
export const requireAuthDevice = async (auth: Auth, sessionId: string): Promise<SessionListing> => {
  const session = (await sessionRepo.listUserSessions(auth.user.id)).find((entry) => entry.id === sessionId);
  if (!session) throw noAccess(Permission.AuthDeviceDelete);
  return session;
};

/** The caller's upload session, expired or not; someone else's is answered as a missing one (asset.upload). */
export const requireUploadSession = async (auth: Auth, sessionId: string): Promise<UploadSessionRecord> => {
  const session = await uploadSessionRepo.get(sessionId);
  if (!session || session.ownerId !== auth.user.id) throw noAccess(Permission.AssetUpload);
  return session;
};

/**
 * A part URL the local store signed (`PUT /api/asset/upload-session/{sessionId}/part/{partNumber}`):
 * a capability, good only with its signature (made with the store's link secret, `secret`), before
 * it expires and while its session and its owner live. Returns the session and the part's declared SHA-1.
 */
export const requireUploadPart = async (
  part: { sessionId: string; partNumber: number; expires: string; signature: string },
  secret: string,
): Promise<{ session: UploadSessionRecord; declared: string }> => {
  const session = await uploadSessionRepo.get(part.sessionId);
  const declared = session?.partChecksums[part.partNumber - 1];
  const expires = Number(part.expires);
  if (
    !session ||
    !declared ||
    !Number.isInteger(expires) ||
    !isUploadPartSignature(secret, part.signature, { ...part, sha1: declared, expires })
  ) {
    throw new Forbidden('The part URL is not valid');
  }
  if (expires <= Date.now() / 1000 || Date.parse(session.expiresAt) <= Date.now()) throw new Forbidden('The part URL has expired');
  // A deleted owner's sessions end with them (services/upload/session-end.ts); one that raced the deletion ends here.
  const owner = await userRepo.get(session.ownerId);
  if (!owner || owner.deletedAt !== null) throw new Forbidden('The upload session has ended');
  return { session, declared };
};
