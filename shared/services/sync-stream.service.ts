import { seesAllUsers } from '../access/access.ts';
import { requireSession } from '../access/sessions.ts';
import { Invalid } from '../core/errors.ts';
import { changeIdAt, changeIdTime } from '../db/changes.ts';
import {
  albumEntryChanges,
  albumItems,
  albumUserItems,
  assetAlbumEntries,
  assetChanges,
  assetEditChanges,
  assetItems,
  assetMetadataChanges,
  assetMetadataScopes,
  type Change,
  createIdOf,
  deleteCheckpoints,
  deletions,
  faceChanges,
  getCheckpoints,
  indexLibrary,
  indexUsers,
  inWindow,
  lockedAssetDeletions,
  memoryAssetChanges,
  memoryChanges,
  mergeInOrder,
  ownAlbumItems,
  partIdsOf,
  partnerItems,
  personChanges,
  putCheckpoints,
  readAlbum,
  readAsset,
  readUser,
  setPendingSyncReset,
  sharedAlbumUserItems,
  stackChanges,
  updateIdOf,
  userChanges,
  userItem,
  userItems,
  type Window,
} from '../db/sync.repository.ts';
import { storedPreferencesOf } from '../domain/preferences.ts';
import { type SyncEntityType, type SyncRequestType, syncEntityTypes } from '../dto/v3/sync.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { StackRecord } from '../model/stack.ts';
import type { SyncEvent } from '../model/sync.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { readConfig } from './config.reader.ts';

/**
 * Immich v3's sync stream (docs/immich-compatibility.md, "The sync stream"): for each type the app
 * asks for, in Immich's order, the deletions and then the changes between the session's checkpoint
 * of that type and a snapshot id taken when the request starts, one JSON line each, as they are
 * read (docs/data-model.md, "Change ids and the sync stream").
 */

/** Where the stream's events go, each to be one line: a write resolves when the next may follow (backpressure). */
export type SyncSink = (event: SyncEvent) => Promise<void>;

/** Immich's ack: `<type>|<updateId>[|<extraId>]`. */
interface Ack {
  type: string;
  updateId: string;
  extraId?: string | undefined;
}

const fromAck = (ack: string): Ack => {
  const [type = '', updateId = '', extraId] = ack.split('|', 3);
  return { type, updateId, extraId };
};
const toAck = ({ type, updateId, extraId }: Ack): string => [type, updateId, extraId].filter((part) => part !== undefined).join('|');

const COMPLETE = 'complete';

/** A line of ids and flags only; `none` for the acks, resets and completions, whose data is `{}`. */
const fields = (values: Record<string, unknown>): SyncEvent['data'] => ({ kind: 'fields', fields: values });
const none = fields({});
/** Immich's SyncStackV1. */
const stackRow = (stack: StackRecord): SyncEvent['data'] =>
  fields({
    id: stack.id,
    createdAt: stack.createdAt,
    updatedAt: stack.updatedAt,
    primaryAssetId: stack.primaryAssetId,
    ownerId: stack.ownerId,
  });
const exif = (asset: AssetRecord): SyncEvent['data'] => ({ kind: 'exif', asset });
/** A session whose last complete sync is older than this starts again: deletions are kept 31 days. */
const MAX_DAYS = 30;
/** Checkpoints live as long as a session can (400 days). */
const CHECKPOINT_TTL_SECONDS = 400 * 86_400;

const deprecated: Partial<Record<SyncRequestType, SyncRequestType>> = {
  AssetsV1: 'AssetsV2',
  PartnerAssetsV1: 'PartnerAssetsV2',
  AlbumAssetsV1: 'AlbumAssetsV2',
  AssetFacesV1: 'AssetFacesV2',
};

/** Immich's order of the types in a stream. */
const order: readonly SyncRequestType[] = [
  'AuthUsersV1',
  'UsersV1',
  'PartnersV1',
  'AssetsV1',
  'AssetsV2',
  'StacksV1',
  'PartnerAssetsV1',
  'PartnerAssetsV2',
  'PartnerStacksV1',
  'AlbumAssetsV1',
  'AlbumAssetsV2',
  'AlbumsV1',
  'AlbumsV2',
  'AlbumUsersV1',
  'AlbumToAssetsV1',
  'AssetExifsV1',
  'AlbumAssetExifsV1',
  'AssetOcrV1',
  'PartnerAssetExifsV1',
  'MemoriesV1',
  'MemoryToAssetsV1',
  'PeopleV1',
  'AssetFacesV1',
  'AssetFacesV2',
  'UserMetadataV1',
  'AssetMetadataV1',
  'AssetEditsV1',
];

const sessionOf = requireSession;

/** The first call's promise, for every call. */
const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let result: Promise<T> | undefined;
  return () => {
    result ??= read();
    return result;
  };
};

/**
 * How long the stream's snapshot trails the clock: a change whose id was made just before it but
 * not yet visible in the change index (its transaction in flight, the index a moment behind) is
 * then still after the checkpoint the app acks, and goes out next time instead of never.
 */
const settleMs = (): number => {
  // DynamoDB Local (npm start, the tests) updates its indexes with the write itself: no lag to wait out there.
  const fallback = process.env.AWS_ENDPOINT_URL_DYNAMODB ? 0 : 2000;
  const value = Number(process.env.SYNC_SETTLE_MS ?? fallback);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};

interface Context {
  userId: string;
  sessionHash: string;
  nowId: string;
  checkpoints: Partial<Record<string, Ack>>;
  send: (type: SyncEntityType, data: SyncEvent['data'], ack: Ack) => Promise<void>;
  /** The user's albums and partners, read once a request (after the snapshot) by the types that need them. */
  albums: () => Promise<Membership[]>;
  partners: () => Promise<{ sharedById: string; createId: string }[]>;
  /** Whether UsersV1 lists every user (`server.publicUsers` on, or an admin), as GET /users does. */
  seesAllUsers: boolean;
}

const windowOf = (context: Context, type: SyncEntityType): Window => ({
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
const presentOf = (context: Context, type: SyncEntityType): Window => ({ after: context.checkpoints[type]?.updateId });

/** An album the user has (theirs or shared with them), and since when (Immich's album_user `createId`). */
interface Membership {
  albumId: string;
  ownerId: string;
  createId: string;
  albumItem: Record<string, unknown>;
}

const memberships = async (userId: string): Promise<Membership[]> => {
  const [own, shared] = await Promise.all([ownAlbumItems(userId), sharedAlbumUserItems(userId)]);
  const sharedAlbums = await albumItems(shared.map((item) => ({ ownerId: String(item.ownerId), albumId: String(item.albumId) })));
  const sharedById = new Map(shared.map((item) => [String(item.albumId), item]));
  return [
    ...own.map((item) => ({ albumId: String(item.albumId ?? item.id), ownerId: userId, createId: createIdOf(item), albumItem: item })),
    ...sharedAlbums.map((item) => {
      const share = sharedById.get(String(item.id)) ?? item;
      return { albumId: String(item.id), ownerId: String(item.ownerId), createId: createIdOf(share), albumItem: item };
    }),
  ].sort((a, b) => (a.createId < b.createId ? -1 : a.createId > b.createId ? 1 : 0));
};

/** The partners who share their library with the user, and since when. */
const partnersOf = async (userId: string): Promise<{ sharedById: string; createId: string }[]> =>
  (await partnerItems(userId)).sharingWith
    .map((item) => ({ sharedById: String(item.sharedById), createId: createIdOf(item) }))
    .sort((a, b) => (a.createId < b.createId ? -1 : 1));

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
const backfill = async <T extends { createId: string }>(
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
      await putCheckpoints(context.sessionHash, [{ type: types.backfill, ack }], ttl());
    }
  }
};

const ttl = (): number => Math.ceil(Date.now() / 1000) + CHECKPOINT_TTL_SECONDS;

/** Sends deletions of one type from several sources (each in change order) as one ordered run. */
const sendDeletionRun = async <T>(
  context: Context,
  type: SyncEntityType,
  sources: readonly AsyncIterable<Change<T>>[],
  map: (record: T) => Record<string, unknown>,
) => {
  for await (const change of mergeInOrder(sources, (change) => change.updateId)) {
    await context.send(type, fields(map(change.record)), { type, updateId: change.updateId });
  }
};

/** Sends deletions of one type from several scopes as one ordered run. */
const sendDeletions = async (
  context: Context,
  type: SyncEntityType,
  scopes: readonly string[],
  map: (record: Record<string, string>) => Record<string, unknown>,
) => {
  const window = windowOf(context, type);
  await sendDeletionRun(
    context,
    type,
    scopes.map((scope) => deletions(scope, window)),
    map,
  );
};

/**
 * What others never get of an asset in its owner's locked folder (docs/immich-compatibility.md,
 * "The locked folder"): no partner's or album's line carries one. Its move in sent them its
 * deletion (`lockedAway`); its move out sends it, and its EXIF, again.
 */
const isLocked = (asset: AssetRecord): boolean => asset.visibility === 'locked';

/** The owners and members of `albums`, but `userId`. */
const albumUsersBut = (albums: readonly { ownerId: string; albumItem: Record<string, unknown> }[], userId: string): Set<string> => {
  const users = new Set<string>();
  for (const album of albums) {
    users.add(album.ownerId);
    for (const member of (album.albumItem.sharedUserIds as string[] | undefined) ?? []) users.add(member);
  }
  users.delete(userId);
  return users;
};

/**
 * The deletions of the assets the partners and the albums' other users moved into their locked
 * folder, for the caller's PartnerAssetDeleteV1 run (the app's handling of it drops its copy of
 * the asset, whoever owns it): every one of a partner's, and those of another user that were in
 * one of the caller's albums then (the caller had them through it); none to an app that never
 * synced a partner's (or an album's) assets, which never had them. Without a checkpoint of its
 * deletions, an app that completed a sync had no such deletion then (it would have acked it):
 * those before it are of assets it never had (locked before it first synced them), and are not sent.
 */
const lockedAway = async (context: Context, partners: readonly { sharedById: string }[]) => {
  const window: Window = {
    after: (context.checkpoints.PartnerAssetDeleteV1 ?? context.checkpoints.SyncCompleteV1)?.updateId,
    before: context.nowId,
  };
  const synced = (...types: SyncEntityType[]) => types.some((type) => context.checkpoints[type] !== undefined);
  const partnerIds = new Set(synced('PartnerAssetV2', 'PartnerAssetBackfillV2') ? partners.map((partner) => partner.sharedById) : []);
  const albums = synced('AlbumAssetCreateV2', 'AlbumAssetBackfillV2') ? await context.albums() : [];
  const albumIds = new Set(albums.map((album) => album.albumId));
  const others = albumUsersBut(albums, context.userId);
  for (const partnerId of partnerIds) others.delete(partnerId);
  const fromAlbums = async function* (ownerId: string) {
    for await (const change of lockedAssetDeletions(ownerId, window))
      if (change.record.albumIds.some((albumId) => albumIds.has(albumId))) yield change;
  };
  return [...[...partnerIds].map((ownerId) => lockedAssetDeletions(ownerId, window)), ...[...others].map(fromAlbums)];
};

/** Which changes of a type are sent: all, or those whose part (an asset's EXIF) changed within the window. */
type Pick = (change: Change<AssetRecord>, window: Window) => boolean;
const everyChange: Pick = () => true;
/** Immich sends an asset's EXIF when its EXIF row changed, not when the asset did (a favourite, a trash). */
const exifChanged: Pick = (change, window) => change.partIds?.exif === undefined || inWindow(change.partIds.exif, window);
/**
 * A partner's: also when it came out of the locked folder, so it comes with its EXIF (which the
 * partner's app dropped with the asset when it went in).
 */
const partnerExifChanged: Pick = (change, window) =>
  exifChanged(change, window) || (change.partIds?.unlock !== undefined && inWindow(change.partIds.unlock, window));
/** Others' changes: none of an asset in its owner's locked folder. */
const unlessLocked =
  (pick: Pick): Pick =>
  (change, window) =>
    !isLocked(change.record) && pick(change, window);

/**
 * Sends the changes `pick` keeps, each acked at its change; when the run ends on changes it left
 * out, a SyncAckV1 acks past them, so the next sync does not read them again.
 */
const sendPicked = async (
  context: Context,
  type: SyncEntityType,
  changes: AsyncIterable<Change<AssetRecord>>,
  window: Window,
  pick: Pick,
  map: (asset: AssetRecord) => SyncEvent['data'],
): Promise<void> => {
  let passed: string | undefined;
  for await (const change of changes) {
    if (!pick(change, window)) {
      passed = change.updateId;
      continue;
    }
    await context.send(type, map(change.record), { type, updateId: change.updateId });
    passed = undefined;
  }
  if (passed) await context.send('SyncAckV1', none, { type, updateId: passed });
};

/** Items to rows, reading their assets a batch at a time (BatchGetItem), in the items' order. */
async function* withAssets<T extends { assetId: string }>(
  changes: AsyncIterable<Change<T>>,
): AsyncGenerator<Change<T> & { asset: AssetRecord }> {
  let batch: Change<T>[] = [];
  const flush = async function* () {
    const found = new Map(
      (await assetItems(batch.map((change) => change.record.assetId))).map((item) => [String(item.id), readAsset(item)]),
    );
    for (const change of batch) {
      const asset = found.get(change.record.assetId);
      if (asset) yield { ...change, asset };
    }
    batch = [];
  };
  for await (const change of changes) {
    batch.push(change);
    if (batch.length >= 100) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

// The owner's row is as old as the album (Immich writes it with the album).
const ownerRow = (membership: Membership) => ({
  updateId: createIdOf(membership.albumItem),
  data: fields({ albumId: membership.albumId, userId: membership.ownerId, role: 'owner' }),
});

/** An album's users (its owner as Immich's `owner` row, then the users it is shared with) within a window, in change order. */
async function* albumUserRows(membership: Membership, window: Window): AsyncGenerator<{ updateId: string; data: SyncEvent['data'] }> {
  const rows = [
    ownerRow(membership),
    ...(await albumUserItems(membership.albumId)).map((item) => ({
      updateId: updateIdOf(item),
      data: fields({ albumId: membership.albumId, userId: String(item.userId), role: String(item.role ?? 'editor') }),
    })),
  ]
    .filter((row) => inWindow(row.updateId, window))
    .sort((a, b) => (a.updateId < b.updateId ? -1 : 1));
  yield* rows;
}

/** The album-asset types (assets, or their EXIF): backfill, updates of known entries, new entries. */
const syncAlbumAssets = async (
  context: Context,
  albums: readonly Membership[],
  types: { backfill: SyncEntityType; update: SyncEntityType; create: SyncEntityType },
  map: (asset: AssetRecord) => SyncEvent['data'],
  pickUpdates: Pick = everyChange,
) => {
  await backfill(context, albums, { backfill: types.backfill, upsert: types.create }, (album, window) =>
    (async function* () {
      for await (const change of withAssets(albumEntryChanges(album.albumId, window)))
        if (!isLocked(change.asset)) yield { updateId: change.updateId, data: map(change.asset) };
    })(),
  );
  const createCheckpoint = context.checkpoints[types.create];
  if (createCheckpoint) {
    // Assets of the albums' other users that changed: each checked against the albums (its entries).
    const albumIds = new Set(albums.map((album) => album.albumId));
    const others = albumUsersBut(albums, context.userId);
    const window = presentOf(context, types.update);
    const inKnownAlbums = async function* () {
      for await (const change of mergeInOrder(
        [...others].map((userId) => assetChanges(userId, window)),
        (change) => change.updateId,
      )) {
        if ((change.record.albumCount ?? 0) === 0) continue;
        const entries = await assetAlbumEntries(change.record.id);
        if (entries.some((entry) => albumIds.has(String(entry.albumId)) && updateIdOf(entry) <= createCheckpoint.updateId)) yield change;
      }
    };
    await sendPicked(context, types.update, inKnownAlbums(), window, unlessLocked(pickUpdates), map);
  }
  let first = true;
  const window = presentOf(context, types.create);
  for await (const change of withAssets(
    mergeInOrder(
      albums.map((album) => albumEntryChanges(album.albumId, window)),
      (change) => change.updateId,
    ),
  )) {
    if (isLocked(change.asset)) continue;
    if (first) {
      await context.send('SyncAckV1', none, { type: types.update, updateId: context.nowId });
      first = false;
    }
    await context.send(types.create, map(change.asset), { type: types.create, updateId: change.updateId });
  }
};

/** The partner-asset types (assets, or their EXIF): backfill of new partners, then every partner's changes. */
const syncPartnerAssets = async (
  context: Context,
  partners: readonly { sharedById: string; createId: string }[],
  types: { backfill: SyncEntityType; upsert: SyncEntityType },
  map: (asset: AssetRecord) => SyncEvent['data'],
  pickUpserts: Pick = everyChange,
) => {
  await backfill(context, partners, types, (partner, window) =>
    (async function* () {
      for await (const change of assetChanges(partner.sharedById, window))
        if (!isLocked(change.record)) yield { updateId: change.updateId, data: map(change.record) };
    })(),
  );
  const window = presentOf(context, types.upsert);
  await sendPicked(
    context,
    types.upsert,
    mergeInOrder(
      partners.map((partner) => assetChanges(partner.sharedById, window)),
      (change) => change.updateId,
    ),
    window,
    unlessLocked(pickUpserts),
    map,
  );
};

const later = (a: string, b: string): string => (a > b ? a : b);

/**
 * The users a user is connected to, with `server.publicUsers` off (docs/immich-compatibility.md,
 * "The sync stream"), each with the change id since which they are (the earliest of their
 * connections): the user themself (always), the partners of either direction, the users of their
 * albums (the owner and those it is shared with), and the owners of the assets that entered their
 * albums since the type's checkpoint (every entry's, for an album gained since then): a user who
 * left an album leaves their photos in it, and the app's assets need their owner's row.
 */
const connectionsOf = async (context: Context): Promise<Map<string, string>> => {
  const connections = new Map<string, string>([[context.userId, '']]);
  const connect = (userId: string, since: string) => {
    const known = connections.get(userId);
    if (known === undefined || since < known) connections.set(userId, since);
  };
  const { sharingWith, sharedBy } = await partnerItems(context.userId);
  for (const item of sharingWith) connect(String(item.sharedById), createIdOf(item));
  for (const item of sharedBy) connect(String(item.sharedWithId), createIdOf(item));
  const window = windowOf(context, 'UserV1');
  for (const album of await context.albums()) {
    connect(album.ownerId, album.createId);
    // An album shared with no one has no users' items to read.
    const shared = ((album.albumItem.sharedUserIds as string[] | undefined) ?? []).length > 0;
    for (const item of shared ? await albumUserItems(album.albumId) : [])
      connect(String(item.userId), later(album.createId, createIdOf(item)));
    const gained = inWindow(album.createId, window);
    const entries = new Map<string, string>();
    for await (const change of albumEntryChanges(album.albumId, gained ? { before: context.nowId } : window))
      if (!entries.has(change.record.assetId)) entries.set(change.record.assetId, change.updateId);
    for (let start = 0; start < entries.size; start += 100) {
      const batch = [...entries].slice(start, start + 100);
      const owners = new Map((await assetItems(batch.map(([assetId]) => assetId))).map((item) => [String(item.id), String(item.ownerId)]));
      for (const [assetId, updateId] of batch) {
        const ownerId = owners.get(assetId);
        if (ownerId) connect(ownerId, later(album.createId, updateId));
      }
    }
  }
  return connections;
};

/** The users connected since the type's checkpoint (before the snapshot), as they are now, in that order. */
async function* newlyConnected(context: Context, connections: ReadonlyMap<string, string>): AsyncGenerator<Change<UserRecord>> {
  const window = windowOf(context, 'UserV1');
  const fresh = [...connections].filter(([, since]) => since !== '' && inWindow(since, window));
  const users = new Map((await userItems(fresh.map(([userId]) => userId))).map((item) => [String(item.id), readUser(item)]));
  for (const [userId, since] of fresh.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
    const user = users.get(userId);
    if (user) yield { updateId: since, record: user };
  }
}

const handlers: Partial<Record<SyncRequestType, (context: Context) => Promise<void>>> = {
  AuthUsersV1: async (context) => {
    const item = await userItem(context.userId);
    if (!item) return;
    const updateId = updateIdOf(item);
    if (inWindow(updateId, presentOf(context, 'AuthUserV1')))
      await context.send('AuthUserV1', { kind: 'authUser', user: readUser(item) }, { type: 'AuthUserV1', updateId });
  },
  UsersV1: async (context) => {
    await sendDeletions(context, 'UserDeleteV1', ['USERS'], ({ userId }) => ({ userId }));
    if (context.seesAllUsers) {
      for await (const change of userChanges(presentOf(context, 'UserV1')))
        await context.send('UserV1', { kind: 'user', user: change.record }, { type: 'UserV1', updateId: change.updateId });
      return;
    }
    // Only the connected users: their changes, and each one as they are when they became connected.
    const connections = await connectionsOf(context);
    const connected = async function* () {
      for await (const change of userChanges(presentOf(context, 'UserV1'))) if (connections.has(change.record.id)) yield change;
    };
    for await (const change of mergeInOrder([connected(), newlyConnected(context, connections)], (change) => change.updateId))
      await context.send('UserV1', { kind: 'user', user: change.record }, { type: 'UserV1', updateId: change.updateId });
  },
  PartnersV1: async (context) => {
    await sendDeletions(context, 'PartnerDeleteV1', [`${context.userId}#PARTNER`], ({ sharedById, sharedWithId }) => ({
      sharedById,
      sharedWithId,
    }));
    const { sharingWith, sharedBy } = await partnerItems(context.userId);
    const window = presentOf(context, 'PartnerV1');
    const rows = [...sharingWith, ...sharedBy]
      .map((item) => ({ updateId: updateIdOf(item), item }))
      .filter((row) => inWindow(row.updateId, window))
      .sort((a, b) => (a.updateId < b.updateId ? -1 : 1));
    for (const { updateId, item } of rows) {
      await context.send(
        'PartnerV1',
        fields({ sharedById: String(item.sharedById), sharedWithId: String(item.sharedWithId), inTimeline: item.inTimeline === true }),
        { type: 'PartnerV1', updateId },
      );
    }
  },
  AssetsV2: async (context) => {
    await sendDeletions(context, 'AssetDeleteV1', [`${context.userId}#ASSET`], ({ assetId }) => ({ assetId }));
    for await (const change of assetChanges(context.userId, presentOf(context, 'AssetV2')))
      await context.send(
        'AssetV2',
        { kind: 'asset', asset: change.record, favorite: true },
        { type: 'AssetV2', updateId: change.updateId },
      );
  },
  PartnerAssetsV2: async (context) => {
    const partners = await context.partners();
    const window = windowOf(context, 'PartnerAssetDeleteV1');
    await sendDeletionRun(
      context,
      'PartnerAssetDeleteV1',
      [
        ...partners.map((partner): AsyncIterable<Change<{ assetId?: string }>> => deletions(`${partner.sharedById}#ASSET`, window)),
        ...(await lockedAway(context, partners)),
      ],
      ({ assetId }) => ({ assetId }),
    );
    await syncPartnerAssets(context, partners, { backfill: 'PartnerAssetBackfillV2', upsert: 'PartnerAssetV2' }, (asset) => ({
      kind: 'asset',
      asset,
      favorite: false,
    }));
  },
  AlbumAssetsV2: async (context) =>
    syncAlbumAssets(
      context,
      await context.albums(),
      { backfill: 'AlbumAssetBackfillV2', update: 'AlbumAssetUpdateV2', create: 'AlbumAssetCreateV2' },
      (asset) => ({ kind: 'asset', asset, favorite: asset.ownerId === context.userId }),
    ),
  AlbumsV2: async (context) => {
    await sendDeletions(context, 'AlbumDeleteV1', [`${context.userId}#ALBUM`], ({ albumId }) => ({ albumId }));
    const window = presentOf(context, 'AlbumV2');
    const rows = (await context.albums())
      .map((membership) => ({ updateId: updateIdOf(membership.albumItem), album: readAlbum(membership.albumItem) }))
      .filter((row) => inWindow(row.updateId, window))
      .sort((a, b) => (a.updateId < b.updateId ? -1 : 1));
    for (const { updateId, album } of rows) await context.send('AlbumV2', { kind: 'album', album }, { type: 'AlbumV2', updateId });
  },
  AlbumUsersV1: async (context) => {
    const albums = await context.albums();
    await sendDeletions(
      context,
      'AlbumUserDeleteV1',
      albums.map((album) => `ALBUM#${album.albumId}#USER`),
      ({ albumId, userId }) => ({ albumId, userId }),
    );
    await backfill(context, albums, { backfill: 'AlbumUserBackfillV1', upsert: 'AlbumUserV1' }, albumUserRows);
    const window = windowOf(context, 'AlbumUserV1');
    for await (const row of mergeInOrder(
      albums.map((album) => albumUserRows(album, window)),
      (row) => row.updateId,
    ))
      await context.send('AlbumUserV1', row.data, { type: 'AlbumUserV1', updateId: row.updateId });
  },
  AlbumToAssetsV1: async (context) => {
    const albums = await context.albums();
    await sendDeletions(
      context,
      'AlbumToAssetDeleteV1',
      albums.map((album) => `ALBUM#${album.albumId}#ASSET`),
      ({ albumId, assetId }) => ({ albumId, assetId }),
    );
    await backfill(context, albums, { backfill: 'AlbumToAssetBackfillV1', upsert: 'AlbumToAssetV1' }, (album, window) =>
      (async function* () {
        for await (const change of albumEntryChanges(album.albumId, window))
          yield { updateId: change.updateId, data: fields(change.record) };
      })(),
    );
    const window = windowOf(context, 'AlbumToAssetV1');
    for await (const change of mergeInOrder(
      albums.map((album) => albumEntryChanges(album.albumId, window)),
      (change) => change.updateId,
    ))
      await context.send('AlbumToAssetV1', fields(change.record), { type: 'AlbumToAssetV1', updateId: change.updateId });
  },
  AssetExifsV1: async (context) => {
    const window = presentOf(context, 'AssetExifV1');
    await sendPicked(context, 'AssetExifV1', assetChanges(context.userId, window), window, exifChanged, exif);
  },
  AlbumAssetExifsV1: async (context) =>
    syncAlbumAssets(
      context,
      await context.albums(),
      { backfill: 'AlbumAssetExifBackfillV1', update: 'AlbumAssetExifUpdateV1', create: 'AlbumAssetExifCreateV1' },
      exif,
      exifChanged,
    ),
  PartnerAssetExifsV1: async (context) =>
    syncPartnerAssets(
      context,
      await context.partners(),
      { backfill: 'PartnerAssetExifBackfillV1', upsert: 'PartnerAssetExifV1' },
      exif,
      partnerExifChanged,
    ),
  MemoriesV1: async (context) => {
    await sendDeletions(context, 'MemoryDeleteV1', [`${context.userId}#MEMORY`], ({ memoryId }) => ({ memoryId }));
    for await (const change of memoryChanges(context.userId, presentOf(context, 'MemoryV1')))
      await context.send('MemoryV1', { kind: 'memory', memory: change.record }, { type: 'MemoryV1', updateId: change.updateId });
  },
  MemoryToAssetsV1: async (context) => {
    await sendDeletions(context, 'MemoryToAssetDeleteV1', [`${context.userId}#MEMORYASSET`], ({ memoryId, assetId }) => ({
      memoryId,
      assetId,
    }));
    for await (const change of memoryAssetChanges(context.userId, windowOf(context, 'MemoryToAssetV1')))
      await context.send('MemoryToAssetV1', fields(change.record), { type: 'MemoryToAssetV1', updateId: change.updateId });
  },
  PeopleV1: async (context) => {
    await sendDeletions(context, 'PersonDeleteV1', [`${context.userId}#PERSON`], ({ personId }) => ({ personId }));
    for await (const change of personChanges(context.userId, presentOf(context, 'PersonV1')))
      await context.send('PersonV1', { kind: 'person', person: change.record }, { type: 'PersonV1', updateId: change.updateId });
  },
  AssetFacesV2: async (context) => {
    await sendDeletions(context, 'AssetFaceDeleteV1', [`${context.userId}#FACE`], ({ assetFaceId }) => ({ assetFaceId }));
    for await (const change of faceChanges(context.userId, windowOf(context, 'AssetFaceV2')))
      await context.send('AssetFaceV2', { kind: 'face', face: change.record }, { type: 'AssetFaceV2', updateId: change.updateId });
  },
  UserMetadataV1: async (context) => {
    await sendDeletions(context, 'UserMetadataDeleteV1', [`${context.userId}#USERMETADATA`], ({ userId, key }) => ({ userId, key }));
    const item = await userItem(context.userId);
    if (!item) return;
    // The metadata's own change id: a change of the user's usage or name does not send it again.
    const updateId = partIdsOf(item)?.metadata ?? updateIdOf(item);
    if (!inWindow(updateId, presentOf(context, 'UserMetadataV1'))) return;
    const user = readUser(item);
    // Immich's user_metadata rows: the preferences the user changed (as Immich stores them: what
    // differs from the defaults, memories off included), onboarding once done, the product key once activated.
    const preferences = storedPreferencesOf(user);
    if (preferences)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'preferences', value: preferences }), {
        type: 'UserMetadataV1',
        updateId,
      });
    if (user.isOnboarded)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'onboarding', value: { isOnboarded: true } }), {
        type: 'UserMetadataV1',
        updateId,
      });
    if (user.license)
      await context.send('UserMetadataV1', fields({ userId: user.id, key: 'license', value: user.license }), {
        type: 'UserMetadataV1',
        updateId,
      });
  },
  AssetEditsV1: async (context) => {
    await sendDeletions(context, 'AssetEditDeleteV1', [`${context.userId}#ASSETEDIT`], ({ editId }) => ({ editId }));
    // An asset's edits as they are now, in order (`sequence`), each a row acked with their change.
    for await (const change of assetEditChanges(context.userId, windowOf(context, 'AssetEditV1')))
      for (const [sequence, edit] of change.record.edits.entries())
        await context.send(
          'AssetEditV1',
          { kind: 'edit', assetId: change.record.assetId, edit, sequence },
          { type: 'AssetEditV1', updateId: change.updateId },
        );
  },
  AssetMetadataV1: async (context) => {
    // Explicit deletions only: metadata that went with its asset goes with the AssetDeleteV1 (the app's rows cascade).
    await sendDeletions(context, 'AssetMetadataDeleteV1', assetMetadataScopes(context.userId), ({ assetId, key }) => ({ assetId, key }));
    for await (const change of assetMetadataChanges(context.userId, windowOf(context, 'AssetMetadataV1'))) {
      const { assetId, key, value } = change.record;
      await context.send('AssetMetadataV1', fields({ assetId, key, value }), { type: 'AssetMetadataV1', updateId: change.updateId });
    }
  },
  StacksV1: async (context) => {
    await sendDeletions(context, 'StackDeleteV1', [`${context.userId}#STACK`], ({ stackId }) => ({ stackId }));
    for await (const change of stackChanges(context.userId, windowOf(context, 'StackV1')))
      await context.send('StackV1', stackRow(change.record), { type: 'StackV1', updateId: change.updateId });
  },
  PartnerStacksV1: async (context) => {
    const partners = await context.partners();
    await sendDeletions(
      context,
      'PartnerStackDeleteV1',
      partners.map((partner) => `${partner.sharedById}#STACK`),
      ({ stackId }) => ({ stackId }),
    );
    await backfill(context, partners, { backfill: 'PartnerStackBackfillV1', upsert: 'PartnerStackV1' }, (partner, window) =>
      (async function* () {
        for await (const change of stackChanges(partner.sharedById, window))
          yield { updateId: change.updateId, data: stackRow(change.record) };
      })(),
    );
    const window = windowOf(context, 'PartnerStackV1');
    for await (const change of mergeInOrder(
      partners.map((partner) => stackChanges(partner.sharedById, window)),
      (change) => change.updateId,
    ))
      await context.send('PartnerStackV1', stackRow(change.record), { type: 'PartnerStackV1', updateId: change.updateId });
  },
  // What this server does not store yet answers nothing (OCR).
};

/**
 * Libraries stored before change ids get them once, before their first sync (docs/data-model.md,
 * "Earlier shapes"): the caller's, their partners' and their albums' users', and every user's own item.
 */
const indexLibraries = async (userId: string): Promise<void> => {
  const [partners, albums] = await Promise.all([partnersOf(userId), memberships(userId)]);
  const owners = new Set([userId, ...partners.map((partner) => partner.sharedById)]);
  for (const album of albums) {
    owners.add(album.ownerId);
    for (const member of (album.albumItem.sharedUserIds as string[] | undefined) ?? []) owners.add(member);
  }
  await indexUsers();
  for (const owner of owners) await indexLibrary(owner);
};

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
  await indexLibraries(auth.user.id);
  const checkpoints: Partial<Record<string, Ack>> = Object.fromEntries(
    (await getCheckpoints(sessionHash)).map(({ type, ack }) => [type, fromAck(ack)]),
  );
  return async (sink: SyncSink): Promise<void> => {
    const line = (type: SyncEntityType, data: SyncEvent['data'], ack: Ack) => sink({ type, data, ack: toAck(ack) });
    const complete = checkpoints.SyncCompleteV1;
    if (pendingReset || (complete && changeIdTime(complete.updateId) < Date.now() - MAX_DAYS * 86_400_000)) {
      await line('SyncResetV1', none, { type: 'SyncResetV1', updateId: 'reset' });
      return;
    }
    const nowId = changeIdAt(Date.now() - settleMs());
    const context: Context = {
      userId: auth.user.id,
      sessionHash,
      nowId,
      checkpoints,
      // An ack never passes the snapshot: a row read past it (`presentOf`) is acked at it.
      send: async (type, data, ack) => {
        await line(type, data, ack.extraId === undefined && ack.updateId > nowId ? { ...ack, updateId: nowId } : ack);
      },
      albums: once(() => memberships(auth.user.id)),
      partners: once(() => partnersOf(auth.user.id)),
      seesAllUsers: body.types.includes('UsersV1') ? seesAllUsers(auth, (await readConfig()).server.publicUsers) : true,
    };
    for (const type of order) {
      if (body.types.includes(type)) await handlers[type]?.(context);
    }
    await line('SyncCompleteV1', none, { type: 'SyncCompleteV1', updateId: context.nowId });
  };
};

/** Immich's `resetSyncProgress`: the session's checkpoints gone, and no reset pending any more. */
const resetSyncProgress = async (userId: string, sessionHash: string): Promise<void> => {
  await Promise.all([deleteCheckpoints(sessionHash), setPendingSyncReset(userId, sessionHash, false)]);
};

/** GET /sync/ack. */
export const getSyncAcks = async (auth: Auth): Promise<{ type: SyncEntityType; ack: string }[]> =>
  (await getCheckpoints(sessionOf(auth))).map(({ type, ack }) => ({ type: type as SyncEntityType, ack }));

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
  await putCheckpoints(
    sessionHash,
    [...checkpoints].map(([type, ack]) => ({ type, ack })),
    ttl(),
  );
};

/** DELETE /sync/ack. */
export const deleteSyncAcks = async (auth: Auth, types?: readonly string[]): Promise<void> => {
  await deleteCheckpoints(sessionOf(auth), types);
};
