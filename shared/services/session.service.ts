import { requireAuthDevice } from '../access/sessions.ts';
import { Invalid } from '../core/errors.ts';
import { setSessionPinExpiry } from '../db/session.repository.ts';
import { setPendingSyncReset } from '../db/sync.repository.ts';
import type { DeviceSession } from '../model/session.ts';
import type { Auth } from '../model/user.ts';

// Its own module: sign-in and the other session routes do not carry the sync repository.

/** PUT /sessions/:id (v3): one of the caller's sessions marked (or not) to start its sync over; the session as it is then. */
export const updateSession = async (auth: Auth, id: string, dto: { isPendingSyncReset?: boolean | undefined }): Promise<DeviceSession> => {
  const session = await requireAuthDevice(auth, id);
  if (dto.isPendingSyncReset === undefined) throw new Invalid('No fields to update');
  await setPendingSyncReset(auth.user.id, session.tokenHash, dto.isPendingSyncReset);
  return { session: { ...session, isPendingSyncReset: dto.isPendingSyncReset }, current: session.tokenHash === auth.sessionHash };
};

/** POST /sessions/:id/lock (v3): one of the caller's sessions is no longer unlocked with the PIN code. */
export const lockSessionById = async (auth: Auth, id: string): Promise<void> => {
  const session = await requireAuthDevice(auth, id);
  await setSessionPinExpiry(session.tokenHash, null);
};
