import { requireAuthDevice } from '../access/sessions.ts';
import { Invalid } from '../core/errors.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as syncRepo from '../db/sync.repository.ts';
import { deviceNamer, named } from '../domain/device.ts';
import type { DeviceSession } from '../model/session.ts';
import type { Auth } from '../model/user.ts';

// Its own module: sign-in and the other session routes do not carry the sync repository.

/** PUT /sessions/:id (v3): one of the caller's sessions marked (or not) to start its sync over; the session as it is then. */
export const updateSession = async (auth: Auth, id: string, dto: { isPendingSyncReset?: boolean | undefined }): Promise<DeviceSession> => {
  const listed = await requireAuthDevice(auth, id);
  if (dto.isPendingSyncReset === undefined) throw new Invalid('No fields to update');
  await syncRepo.setPendingSyncReset(auth.user.id, listed.tokenHash, dto.isPendingSyncReset);
  // Its device, app version and last use as its own item keeps them (what using it refreshes).
  const [session, name] = await Promise.all([sessionRepo.get(listed.tokenHash), deviceNamer()]);
  return {
    session: { ...named(session ?? listed, name), isPendingSyncReset: dto.isPendingSyncReset },
    current: listed.tokenHash === auth.sessionHash,
  };
};

/** POST /sessions/:id/lock (v3): one of the caller's sessions is no longer unlocked with the PIN code. */
export const lockSessionById = async (auth: Auth, id: string): Promise<void> => {
  const session = await requireAuthDevice(auth, id);
  await sessionRepo.setPinExpiry(session.tokenHash, null);
};
