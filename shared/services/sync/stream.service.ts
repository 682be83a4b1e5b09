import { requireSession } from '../../access/sessions.ts';
import { seesAllUsers } from '../../access/user-access.ts';
import { syncSettleMs } from '../../core/env.ts';
import { Invalid } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { changeIdAt, changeIdTime } from '../../db/changes.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { SyncEntityType, SyncEvent, SyncRequestType } from '../../model/sync.ts';
import type { Auth } from '../../model/user.ts';
import { readConfig } from '../config.reader.ts';
import { resetSyncProgress } from './acks.service.ts';
import { albumRequestTypes, albumsRead } from './albums.ts';
import { type Ack, type Context, fromAck, none, once, toAck } from './mechanics.ts';
import { deprecated, order, typeSyncs } from './types.ts';

/**
 * Immich v3's sync stream (docs/immich-compatibility.md, "The sync stream"): for each type the app
 * asks for, in Immich's order, the deletions and then the changes between the session's checkpoint
 * of that type and a snapshot id taken when the request starts, one JSON line each, as they are
 * read (docs/data-model.md, "Change ids and the sync stream"). The mechanics and the types are in
 * shared/services/sync/ (mechanics.ts, types.ts and a module per kind of entity).
 */

/** Where the stream's events go, each to be one line: a write resolves when the next may follow (backpressure). */
export type SyncSink = (event: SyncEvent) => Promise<void>;

/**
 * Whether the stream should end before it is whole, and why (shared/http/stream-handler.ts: the
 * function's time or Lambda's 200 MB an answer nearly spent); never, unless given.
 */
export type Ending = () => string | undefined;

/** Thrown by a line that is not sent because the stream ends first; caught where the stream ends. */
class EndsHere extends Error {}

/** A session whose last complete sync is older than this starts again: deletions are kept 31 days. */
const MAX_DAYS = 30;

const sessionOf = requireSession;

/** POST /sync/stream: validated before the first line, so a refused request is a plain JSON error. */
export const prepareSyncStream = async (auth: Auth, body: { types: readonly SyncRequestType[]; reset?: boolean | undefined }) => {
  const sessionHash = sessionOf(auth);
  for (const type of body.types) {
    const instead = deprecated[type];
    if (instead) throw new Invalid(`SyncRequestType.${type} is deprecated, use SyncRequestType.${instead} instead`);
  }
  // A reset asked for, or marked by PUT /sessions/:id, starts the session over (Immich's resetSyncProgress).
  if (body.reset) await resetSyncProgress(auth.user.id, sessionHash);
  const pendingReset = !body.reset && auth.syncResetPending === true;
  const checkpoints: Partial<Record<string, Ack>> = Object.fromEntries(
    (await syncRepo.getCheckpoints(sessionHash)).map(({ type, ack }) => [type, fromAck(ack)]),
  );
  return async (sink: SyncSink, ending: Ending = () => undefined): Promise<void> => {
    // The stream may end early only where the app's acks can resume it: after a line whose ack
    // differs from the next line's (the lines of one ack, as an asset's edits, go out together),
    // and once it has sent a line of data, not only SyncAckV1s: each stream then moves a checkpoint
    // on (a type's first SyncAckV1 acks its updates to the snapshot, each time: alone, it would
    // be all a stream sent, again and again). The app applies and acks every line of a stream
    // that ends cleanly, and its next sync goes on from there (docs/immich-compatibility.md,
    // "The sync stream", "Ending before the deadline").
    let lastAck: string | undefined;
    let sentData = false;
    let lines = 0;
    // The closing ack of the picked run under way (the context's, once it is made below).
    let closingAck = (): Ack | undefined => undefined;
    const line = async (type: SyncEntityType, data: SyncEvent['data'], ack: Ack) => {
      const text = toAck(ack);
      if (sentData && text !== lastAck) {
        const reason = ending();
        if (reason) {
          log.info('sync stream ends before its completion', { reason, lines });
          // Inside a picked run, its closing ack says where it began (mechanics.ts, `sendPicked`).
          const closing = closingAck();
          if (closing) await sink({ type: 'SyncAckV1', data: none, ack: toAck(closing) });
          throw new EndsHere();
        }
      }
      await sink({ type, data, ack: text });
      lastAck = text;
      if (type !== 'SyncAckV1') sentData = true;
      lines++;
    };
    const complete = checkpoints.SyncCompleteV1;
    if (pendingReset || (complete && changeIdTime(complete.updateId) < Date.now() - MAX_DAYS * 86_400_000)) {
      await line('SyncResetV1', none, { type: 'SyncResetV1', updateId: 'reset' });
      return;
    }
    const nowId = changeIdAt(Date.now() - syncSettleMs());
    // The album memberships and partner shares, each read once (after the snapshot) by the types
    // that need them. Libraries stored before change ids got theirs from the table's migration, not
    // here (shared/services/sync/migration.ts).
    const shares = once(() => syncRelationsRepo.partnerShares(auth.user.id));
    const context: Context = {
      userId: auth.user.id,
      sessionHash,
      nowId,
      checkpoints,
      // An ack never passes the snapshot: a row read past it (`presentOf`) is acked at it.
      send: async (type, data, ack) => {
        await line(type, data, ack.extraId === undefined && ack.updateId > nowId ? { ...ack, updateId: nowId } : ack);
      },
      albums: once(() => syncRelationsRepo.albumMemberships(auth.user.id)),
      partnerShares: shares,
      partners: once(async () => [...(await shares()).sharingWith].sort((a, b) => (a.createId < b.createId ? -1 : 1))),
      seesAllUsers: body.types.includes('UsersV1') ? seesAllUsers(auth, (await readConfig()).server.publicUsers) : true,
    };
    closingAck = () => context.closing;
    try {
      for (const type of order) {
        if (body.types.includes(type)) await typeSyncs[type]?.(context);
      }
    } catch (error) {
      // Ended early: what was sent is whole, and without SyncCompleteV1 nothing says the sync is done.
      if (error instanceof EndsHere) return;
      throw error;
    }
    // Whether it read the albums for every type a quiet sync skips (shared/services/sync/albums.ts).
    const readAlbums = albumRequestTypes.every((type) => body.types.includes(type));
    await sink({
      type: 'SyncCompleteV1',
      data: none,
      ack: toAck({ type: 'SyncCompleteV1', updateId: context.nowId, ...(readAlbums ? { extraId: albumsRead } : {}) }),
    });
  };
};
