import { type UploadSessionRecord, UploadSessionRecordSchema } from '../model/upload-session.ts';
import type { QuotaCheck, UserRecord } from '../model/user.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as userWrites from './items/user-writes.ts';
import type { Outcome } from './outcome.ts';
import { deleteWrite, putWrite, tryTransact, type Write, writeIfPresent, writeOne } from './transact.ts';

const sessionCodec = codec('uploadSession', UploadSessionRecordSchema);

/**
 * A session starts, holding its declared size of the owner's quota in the same transaction (the
 * owner as read: `check`); holds that expired (`expired`) go with it. `owner-changed` when the
 * owner changed since read (a session opened, an upload counted, the quota moved) or was deleted:
 * read again.
 */
export const create = (
  session: UploadSessionRecord,
  owner: UserRecord,
  check: QuotaCheck,
  expired: readonly string[],
): Promise<Outcome<'owner-changed'>> =>
  tryTransact([
    putWrite({ ...keys.uploadSession(session.id), type: 'uploadSession', ...session }, { condition: 'absent' }),
    userWrites.openSession(owner.id, check, { id: session.id, bytes: session.size, expiresAt: session.expiresAt }, expired),
  ]);

/** Gives a user stored before upload sessions held quota the (empty) map of holds. */
export const ensureHoldsMap = async (userId: string): Promise<void> => {
  await writeOne(userWrites.holdsMap(userId));
};

/** A session by id, expired or not (the caller tells an expired one apart); undefined when there is none. */
export const get = async (sessionId: string): Promise<UploadSessionRecord | undefined> => {
  const item = await getItem(keys.uploadSession(sessionId));
  return item ? sessionCodec.read(item) : undefined;
};

/** Ends a session in the transaction that records its asset (so it completes once). */
export const uploadSessionWrites = {
  end: (sessionId: string): Write<'session-ended'> =>
    deleteWrite(keys.uploadSession(sessionId), { condition: 'present', refusal: 'session-ended' }),
};

/** Ends a session that made no asset (deleted, expired, refused): the item, then its hold on the quota. */
export const remove = async (session: Pick<UploadSessionRecord, 'id' | 'ownerId'>): Promise<void> => {
  await writeOne(deleteWrite(keys.uploadSession(session.id)));
  // A user stored before holds existed has none to end.
  await writeIfPresent(userWrites.closeSession(session.ownerId, session.id));
};
