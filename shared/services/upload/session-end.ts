/**
 * How an upload session ends without a file (docs/large-uploads.md): its multipart upload is
 * aborted, so the part URLs it gave out take no more bytes (in the bucket as locally), and its
 * hold on the owner's quota goes. Apart from services/upload/session.service.ts so that deleting a user
 * bundles only this.
 */
import * as uploadSessionRepo from '../../db/upload-session.repository.ts';
import type { UploadSessionRecord } from '../../model/upload-session.ts';
import type { UserRecord } from '../../model/user.ts';
import { originalsStore } from '../../storage/originals.ts';

export const endSession = async (session: UploadSessionRecord): Promise<void> => {
  await (await originalsStore()).abortMultipart(session.key, session.uploadId);
  await uploadSessionRepo.remove(session);
};

/** A deleted user's open sessions end (DELETE /user/:id). */
export const endSessionsOf = async (user: Pick<UserRecord, 'uploadSessions'>): Promise<void> => {
  // At most ten live (and a few expired) holds: all at once.
  await Promise.all(
    Object.keys(user.uploadSessions).map(async (sessionId) => {
      const session = await uploadSessionRepo.get(sessionId);
      if (session) await endSession(session);
    }),
  );
};
