import { requireSession } from '../../access/sessions.ts';
import { Invalid } from '../../core/errors.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import { type SyncEntityType, syncEntityTypes } from '../../model/sync.ts';
import type { Auth } from '../../model/user.ts';
import { fromAck, ttl } from './mechanics.ts';

/**
 * The sync stream's checkpoints as Immich v3's ack routes read and write them (docs/immich-compatibility.md,
 * "The sync stream"): apart from the stream (stream.service.ts), so that the ack functions bundle
 * none of its table of types.
 */

const sessionOf = requireSession;

/** Immich's `resetSyncProgress`: the session's checkpoints gone, and no reset pending any more. */
export const resetSyncProgress = async (userId: string, sessionHash: string): Promise<void> => {
  await Promise.all([syncRepo.deleteCheckpoints(sessionHash), syncRepo.setPendingSyncReset(userId, sessionHash, false)]);
};

/** GET /sync/ack. */
export const getSyncAcks = async (auth: Auth): Promise<{ type: SyncEntityType; ack: string }[]> =>
  (await syncRepo.getCheckpoints(sessionOf(auth))).map(({ type, ack }) => ({ type: type as SyncEntityType, ack }));

/** POST /sync/ack: the last ack of each type is the session's checkpoint; `SyncResetV1` starts again. */
export const setSyncAcks = async (auth: Auth, acks: readonly string[]): Promise<void> => {
  const sessionHash = sessionOf(auth);
  const checkpoints = new Map<string, string>();
  for (const ack of acks) {
    const { type } = fromAck(ack);
    if (type === 'SyncResetV1') {
      await resetSyncProgress(auth.user.id, sessionHash);
      return;
    }
    if (!(syncEntityTypes as readonly string[]).includes(type)) throw new Invalid(`Invalid ack type: ${type}`);
    checkpoints.set(type, ack);
  }
  await syncRepo.putCheckpoints(
    sessionHash,
    [...checkpoints].map(([type, ack]) => ({ type, ack })),
    ttl(),
  );
};

/** DELETE /sync/ack. */
export const deleteSyncAcks = async (auth: Auth, types?: readonly string[]): Promise<void> => {
  await syncRepo.deleteCheckpoints(sessionOf(auth), types);
};
