import { changeIdAt } from '../../db/changes.ts';
import type { Change, Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { Membership, PartnerShare } from '../../db/sync-relations.repository.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { SyncEntityType, SyncEvent, SyncRequestType } from '../../model/sync.ts';

/**
 * The sync stream's mechanics (docs/immich-compatibility.md, "The sync stream"), the same for
 * every type: acks and checkpoints, the windows a type reads, the backfills of gained albums and
 * partners, and the runs of deletions and picked changes. What each type reads is its module's
 * (shared/services/sync/types.ts lists them).
 */

/** Immich's ack: `<type>|<updateId>[|<extraId>]`. */
export interface Ack {
  type: string;
  updateId: string;
  extraId?: string | undefined;
}

export const fromAck = (ack: string): Ack => {
  const [type = '', updateId = '', extraId] = ack.split('|', 3);
  return { type, updateId, extraId };
};
export const toAck = ({ type, updateId, extraId }: Ack): string => [type, updateId, extraId].filter((part) => part !== undefined).join('|');

const COMPLETE = 'complete';

/** A line of ids and flags only; `none` for the acks, resets and completions, whose data is `{}`. */
export const fields = (values: Record<string, unknown>): SyncEvent['data'] => ({ kind: 'fields', fields: values });
export const none = fields({});

/** Checkpoints live as long as a session can (400 days). */
const CHECKPOINT_TTL_SECONDS = 400 * 86_400;
export const ttl = (): number => Math.ceil(Date.now() / 1000) + CHECKPOINT_TTL_SECONDS;

/** The first call's promise, for every call. */
export const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let result: Promise<T> | undefined;
  return () => {
    result ??= read();
    return result;
  };
};

/** One request's stream: who, its snapshot and checkpoints, where its lines go, and what it read once. */
export interface Context {
  userId: string;
  sessionHash: string;
  nowId: string;
  checkpoints: Partial<Record<string, Ack>>;
  send: (type: SyncEntityType, data: SyncEvent['data'], ack: Ack) => Promise<void>;
  /** The user's albums and partners (those sharing with them), read once a request by the types that need them. */
  albums: () => Promise<Membership[]>;
  partners: () => Promise<PartnerShare[]>;
  /** The user's partner shares of both directions (the partners above are the first). */
  partnerShares: () => Promise<{ sharingWith: PartnerShare[]; sharedBy: PartnerShare[] }>;
  /** Whether UsersV1 lists every user (`server.publicUsers` on, or an admin), as GET /users does. */
  seesAllUsers: boolean;
  /**
   * While a picked run is under way (`sendPicked`), the ack that closes it if the stream ends
   * inside it (stream.service.ts): how far it went, and where it began.
   */
  closing?: Ack | undefined;
}

export const windowOf = (context: Context, type: SyncEntityType): Window => ({
  after: context.checkpoints[type]?.updateId,
  before: context.nowId,
});

/**
 * The window of a type others refer to (users, partners, assets and their EXIF, albums, memories,
 * people): from the checkpoint to the present, not to the snapshot. An item changed after the
 * snapshot is listed at its new change id, past the snapshot: bounded there, it would not be sent
 * while a face, an album entry or a metadata key of it (whose change came before) is, and the app's
 * tables would refuse those (their foreign keys), failing the sync; and an asset's EXIF changed
 * before the snapshot would be acked past by another's (its own id, shared/db/changes.ts) and never
 * sent. Read to the present, it is sent in its current state; its ack stays at the snapshot
 * (`Context.send`), so it is sent again next time, and nothing after the snapshot is acked.
 */
export const presentOf = (context: Context, type: SyncEntityType): Window => ({ after: context.checkpoints[type]?.updateId });

const isComplete = (createId: string, checkpoint: Ack | undefined): boolean =>
  createId === checkpoint?.updateId && checkpoint.extraId === COMPLETE;
const startIdOf = (createId: string, checkpoint: Ack | undefined): string | undefined =>
  createId === checkpoint?.updateId ? checkpoint.extraId : undefined;

/**
 * Immich's backfill: when the user gained an album or a partner since the type's run began, that
 * entity's rows up to the type's checkpoint go out first (acked `<type>|<createId>|<updateId>`),
 * each closed by a SyncAckV1 `<type>|<createId>|complete`; rows after the checkpoint come with
 * the type's own run. A session with no checkpoint yet gets everything from the run: the
 * backfills are marked complete up to the newest entity.
 */
export const backfill = async <T extends { createId: string }>(
  context: Context,
  entities: readonly T[],
  types: { backfill: SyncEntityType; upsert: SyncEntityType },
  rows: (entity: T, window: Window) => AsyncIterable<{ updateId: string; data: SyncEvent['data'] }>,
): Promise<void> => {
  const checkpoint = context.checkpoints[types.backfill];
  const created = entities.filter(
    (entity) => (checkpoint === undefined || entity.createId >= checkpoint.updateId) && entity.createId < context.nowId,
  );
  const upsertCheckpoint = context.checkpoints[types.upsert];
  if (upsertCheckpoint) {
    for (const entity of created) {
      if (isComplete(entity.createId, checkpoint)) continue;
      const window = { after: startIdOf(entity.createId, checkpoint), until: upsertCheckpoint.updateId, before: context.nowId };
      for await (const row of rows(entity, window)) {
        await context.send(types.backfill, row.data, { type: types.backfill, updateId: entity.createId, extraId: row.updateId });
      }
      await context.send('SyncAckV1', none, { type: types.backfill, updateId: entity.createId, extraId: COMPLETE });
    }
  } else {
    const last = created.at(-1);
    if (last) {
      const ack = toAck({ type: types.backfill, updateId: last.createId, extraId: COMPLETE });
      await syncRepo.putCheckpoints(context.sessionHash, [{ type: types.backfill, ack }], ttl());
    }
  }
};

/** Sends deletions of one type from several sources (each in change order) as one ordered run. */
export const sendDeletionRun = async <T>(
  context: Context,
  type: SyncEntityType,
  sources: readonly AsyncIterable<Change<T>>[],
  map: (record: T) => Record<string, unknown>,
) => {
  for await (const change of syncRepo.mergeInOrder(sources, (change) => change.updateId)) {
    await context.send(type, fields(map(change.record)), { type, updateId: change.updateId });
  }
};

/** Sends deletions of one type, read from `sources` within the type's window, as one ordered run. */
export const sendDeletions = async (
  context: Context,
  type: SyncEntityType,
  sources: (window: Window) => readonly AsyncIterable<Change<Record<string, string>>>[],
  map: (record: Record<string, string>) => Record<string, unknown>,
) => {
  await sendDeletionRun(context, type, sources(windowOf(context, type)), map);
};

/** Sends a type's changes from one source (each acked at its change). */
export const sendChanges = async <T>(
  context: Context,
  type: SyncEntityType,
  changes: AsyncIterable<Change<T>>,
  map: (record: T) => SyncEvent['data'],
): Promise<void> => {
  for await (const change of changes) await context.send(type, map(change.record), { type, updateId: change.updateId });
};

/** Which changes of a type are sent: all, or those whose part (an asset's EXIF) changed within the window. */
export type Pick = (change: Change<AssetRecord>, window: Window) => boolean;
export const everyChange: Pick = () => true;

/**
 * Sends the changes `pick` keeps, each acked at its change; when the run ends on changes it left
 * out, a SyncAckV1 acks past them, so the next sync does not read them again.
 *
 * A pick looks at a part's change (an asset's EXIF) within the window, but the run goes in the
 * asset's change order: an asset not yet reached when a stream ended inside the run, whose EXIF
 * changed before the last change acked, was never sent it. So every line of the run but its last
 * is acked `<type>|<change>|<where the run began>`, and a stream that ends inside the run closes
 * it with a SyncAckV1 `<type>|<last change read>|<where the run began>` (`Context.closing`): a run
 * resumed from either (the app's acks after a cut connection, or after the stream's own end) picks
 * from where that one began, not from its ack. The run's last line is acked without it, so a whole
 * run's next sync picks from its ack again (docs/immich-compatibility.md, "The sync stream",
 * "Ending before the deadline").
 */
export const sendPicked = async (
  context: Context,
  type: SyncEntityType,
  changes: AsyncIterable<Change<AssetRecord>>,
  window: Window,
  pick: Pick,
  map: (asset: AssetRecord) => SyncEvent['data'],
): Promise<void> => {
  const began = context.checkpoints[type]?.extraId;
  const pickWindow = began === undefined ? window : { ...window, after: began };
  const start = began ?? window.after ?? changeIdAt(0);
  // An ack never passes the snapshot (a change read past it is acked at it, as `Context.send` does).
  const atMost = (updateId: string): string => (updateId > context.nowId ? context.nowId : updateId);
  const reached = (updateId: string): void => {
    context.closing = { type, updateId: atMost(updateId), extraId: start };
  };
  // Each picked line waits for the next change: only then is it known whether it is the run's last.
  let held: { data: SyncEvent['data']; updateId: string } | undefined;
  const release = async (last: boolean): Promise<void> => {
    if (!held) return;
    const { data, updateId } = held;
    held = undefined;
    await context.send(type, data, { type, updateId: atMost(updateId), ...(last ? {} : { extraId: start }) });
    reached(updateId);
  };
  let passed: string | undefined;
  try {
    for await (const change of changes) {
      if (!pick(change, pickWindow)) {
        await release(false);
        passed = change.updateId;
        reached(change.updateId);
        continue;
      }
      await release(false);
      held = { data: map(change.record), updateId: change.updateId };
      passed = undefined;
    }
    await release(true);
  } finally {
    context.closing = undefined;
  }
  if (passed) await context.send('SyncAckV1', none, { type, updateId: passed });
};

/** Rows in change order. */
export const byUpdateId = <T extends { updateId: string }>(a: T, b: T): number => (a.updateId < b.updateId ? -1 : 1);

/** What each requested type sends (its deletions, then its backfills and changes). */
export type TypeSyncs = Partial<Record<SyncRequestType, (context: Context) => Promise<void>>>;
