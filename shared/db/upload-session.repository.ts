import { type UploadSessionRecord, UploadSessionRecordSchema } from '../model/upload-session.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import { keys } from './keys.ts';
import { deleteWrite, putWrite, type Write, writeOne } from './transact.ts';

const sessionCodec = codec('uploadSession', UploadSessionRecordSchema);

export const createUploadSession = async (session: UploadSessionRecord): Promise<void> => {
  await writeOne(putWrite({ ...keys.uploadSession(session.id), type: 'uploadSession', ...session }, { condition: 'absent' }));
};

/** A session by id, expired or not (the caller tells an expired one apart); undefined when there is none. */
export const getUploadSession = async (sessionId: string): Promise<UploadSessionRecord | undefined> => {
  const item = await getItem(keys.uploadSession(sessionId));
  return item ? sessionCodec.read(item) : undefined;
};

/** Ends a session: on its own, or in the transaction that records its asset (so it completes once). */
export const uploadSessionWrites = {
  end: (sessionId: string, onConditionFailed?: () => Error): Write =>
    deleteWrite(keys.uploadSession(sessionId), { condition: 'present', ...(onConditionFailed ? { onConditionFailed } : {}) }),
};

export const deleteUploadSession = async (sessionId: string): Promise<void> => {
  await writeOne(deleteWrite(keys.uploadSession(sessionId)));
};
