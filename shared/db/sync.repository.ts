import { inBatches } from '../core/concurrency.ts';
import type { AlbumRecord } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import type { AssetMetadataRecord } from '../model/asset-metadata.ts';
import type { MemoryRecord } from '../model/memory.ts';
import type { AssetOcrRecord } from '../model/ocr.ts';
import type { UserRecord } from '../model/user.ts';
import * as albumSyncRepo from './album-sync.repository.ts';
import { batchDelete, batchGet, batchPut } from './batch.ts';
import { assetMetadataShards, changeIdAt } from './changes.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { albumCodec } from './items/album.ts';
import { type AlbumMarkers, entryOwnersOfItem, forgetEntriesMarker, markersOf } from './items/album-mark.ts';
import { assetCodec, assetEditsCodec } from './items/asset.ts';
import { assetMetadataCodec } from './items/asset-metadata.ts';
import { faceCodec } from './items/face.ts';
import { memoryCodec } from './items/memory.ts';
import { assetOcrCodec } from './items/ocr.ts';
import { personCodec } from './items/person.ts';
import { stackCodec } from './items/stack.ts';
import { userCodec } from './items/user.ts';
import type { Partition } from './keys.ts';
import * as migrationsRepo from './migrations.repository.ts';
import * as partitions from './partitions.ts';
import * as partnerRepo from './partner.repository.ts';
import { queryAll, queryPages } from './query.ts';
import * as syncScopes from './sync-scopes.ts';
import { isCancelled, transact, updateWrite, writeIfPresent, writeOne } from './transact.ts';

type Item = Record<string, unknown>;

/**
 * A change window: ids after `after` (all when absent) and before `before` (to the present when
 * absent), as Immich's `> ack AND < nowId`.
 */
export interface Window {
  after?: string | undefined;
  before?: string | undefined;
  /** Also at most this id (a backfill stops at the checkpoint its type's run starts after). */
  until?: string | undefined;
}

/**
 * An item's change id. Albums, their users and partners stored before change ids existed are
 * read from their own partitions, so they get one from when they last changed; an item of a change
 * partition always has one (shared/db/changes.ts).
 */
export const updateIdOf = (item: Item): string =>
  typeof item.updateId === 'string' ? item.updateId : changeIdAt(Date.parse(String(item.updatedAt ?? item.createdAt ?? 0)) || 0);

/** When a user gained an album or a partner's library (Immich's `createId`), for the backfills. */
export const createIdOf = (item: Item): string =>
  typeof item.createId === 'string' ? item.createId : changeIdAt(Date.parse(String(item.createdAt ?? item.updatedAt ?? 0)) || 0);

export const inWindow = (id: string, { after, before, until }: Window): boolean =>
  (before === undefined || id < before) && (until === undefined || id <= until) && (after === undefined || id > after);

const expired = (item: Item): boolean => typeof item.ttl === 'number' && item.ttl * 1000 <= Date.now();

/**
 * A reader's pages: the first small (50), each after it four times the one before, up to 500. A first sync
 * merges every album's entries (`mergeInOrder`), each reader holding its current page, so the pages
 * held are as many as the albums: small ones keep that to a few entries an album, and an album the
 * merge keeps draining soon reads 500 a call (docs/benchmarks.md, "Albums at library scale").
 */
export const readerPages = { first: 50, largest: 500 } as const;

/**
 * One partition's items in change order within the window, page by page: a Query of its key
 * range (`updateId` on gsi3, the change id itself for deletions), never collected; `attributes`:
 * only those (with the ones the window needs: `updateId`, `ttl`).
 */
async function* inOrder(partition: Partition, window: Window, attributes?: readonly string[]): AsyncGenerator<Item> {
  for await (const page of queryPages(partition, {
    pageSize: readerPages.first,
    growTo: readerPages.largest,
    ...(attributes ? { attributes: [...new Set([...attributes, 'sk', 'updateId', 'updatedAt', 'createdAt', 'ttl'])] } : {}),
    ...(window.after ? { from: window.after } : {}),
    ...(window.until !== undefined && (window.before === undefined || window.until < window.before)
      ? { to: window.until }
      : window.before !== undefined
        ? { to: window.before }
        : {}),
  })) {
    for (const item of page) {
      const id = partition.index ? updateIdOf(item) : String(item.sk);
      if (inWindow(id, window) && !expired(item)) yield item;
    }
  }
}

/** What changed in a change partition (an owner's assets, faces or people, an album's entries, the users), in order. */
export const changesIn = (scope: string, window: Window, attributes?: readonly string[]): AsyncGenerator<Item> =>
  inOrder(partitions.changes(scope), window, attributes);

/** The deletions of a scope (shared/db/items/deletion.ts), in order; each carries its `deleteId`. */
export const deletionsIn = (scope: string, window: Window): AsyncGenerator<Item> => inOrder(partitions.deletions(scope), window);

/**
 * Merges streams each in change order into one (by `key`), reading each only as far as needed:
 * the partners' or albums' changes of one type go out as one ordered run, so an ack is a
 * checkpoint for all of them.
 */
export async function* mergeInOrder<T>(sources: readonly AsyncIterable<T>[], key: (item: T) => string): AsyncGenerator<T> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
  for (;;) {
    let best = -1;
    for (const [index, head] of heads.entries()) {
      if (head.done) continue;
      const current = heads[best];
      if (best < 0 || (current && !current.done && key(head.value) < key(current.value))) best = index;
    }
    const chosen = heads[best];
    const iterator = iterators[best];
    if (best < 0 || !chosen || chosen.done || !iterator) return;
    yield chosen.value;
    heads[best] = await iterator.next();
  }
}

/** The raw items of a user's own albums (Query `USER#<id>` ALBUM#). */
export const ownAlbumItems = (userId: string): Promise<Item[]> => queryAll(partitions.userAlbums(userId));

/** The albumUser items of the albums shared with a user (Query gsi2 `SHAREDWITH#<id>`), without a deleted owner's. */
export const sharedAlbumUserItems = async (userId: string): Promise<Item[]> =>
  (await queryAll(partitions.albumsSharedWith(userId))).filter((item) => item.ownerDeleted !== true);

/** Albums by their keys (BatchGetItem). */
export const albumItems = (refs: readonly { ownerId: string; albumId: string }[]): Promise<Item[]> =>
  batchGet(refs.map((ref) => keys.album(ref.ownerId, ref.albumId)));

/**
 * The change markers of albums (BatchGetItem of their summary items: docs/data-model.md, "Album
 * summaries"), by album id, with whether the item names the album's owner (`ownerId`).
 */
export const albumMarkers = async (
  albumIds: readonly string[],
): Promise<Map<string, { markers: AlbumMarkers; ownerKnown: boolean; entryOwners: string[] }>> =>
  new Map(
    (await batchGet(albumIds.map((albumId) => keys.albumSummary(albumId)))).map((item) => [
      String(item.pk).slice('ALBUM#'.length),
      { markers: markersOf(item), ownerKnown: typeof item.ownerId === 'string', entryOwners: entryOwnersOfItem(item).owners },
    ]),
  );

/** An album's users' items (Query `ALBUM#<id>` USER#). */
export const albumUserItems = async (albumId: string): Promise<Item[]> =>
  (await queryAll({ value: keys.albumUser(albumId, '').pk, prefix: 'USER#' })).filter((item) => item.ownerDeleted !== true);

/** The partner items that share with the user (theirs) and that the user shares (one Query each), without a deleted user's (pattern 61). */
export const partnerItems = async (userId: string): Promise<{ sharingWith: Item[]; sharedBy: Item[] }> => {
  const [sharingWith, sharedBy] = await Promise.all([
    queryAll(partitions.partnersSharingWith(userId)),
    queryAll(partitions.partnersSharedBy(userId)),
  ]);
  return { sharingWith: sharingWith.filter(partnerRepo.liveShare), sharedBy: sharedBy.filter(partnerRepo.liveShare) };
};

/** The album entries of an asset (Query gsi2 `ASSETALBUMS#<id>`): which albums it is in, and since when. */
export const assetAlbumEntries = (assetId: string): Promise<Item[]> => queryAll(partitions.assetAlbums(assetId));

export const userItem = (userId: string): Promise<Item | undefined> => getItem(keys.user(userId));

/** Users' items by id (BatchGetItem). */
export const userItems = (userIds: readonly string[]): Promise<Item[]> => batchGet(userIds.map((id) => keys.user(id)));

export const assetItems = (assetIds: readonly string[]): Promise<Item[]> => batchGet(assetIds.map((id) => keys.asset(id)));

/** A session's checkpoints: the last ack of each type (Query `SESSION#<hash>` SYNC#). */
export const getCheckpoints = async (tokenHash: string): Promise<{ type: string; ack: string }[]> =>
  (await queryAll(partitions.syncCheckpoints(tokenHash))).map((item) => ({
    type: String(item.sk).slice('SYNC#'.length),
    ack: String(item.ack),
  }));

/** Stores checkpoints (one item a type, replaced), kept as long as a session can live. */
export const putCheckpoints = (tokenHash: string, checkpoints: readonly { type: string; ack: string }[], ttl: number): Promise<void> =>
  batchPut(checkpoints.map(({ type, ack }) => ({ ...keys.syncCheckpoint(tokenHash, type), type: 'syncCheckpoint', ack, ttl })));

/** Deletes a session's checkpoints, of the given types or all. */
export const deleteCheckpoints = async (tokenHash: string, types?: readonly string[]): Promise<void> => {
  const existing = types ? types.map((type) => ({ type })) : await getCheckpoints(tokenHash);
  await batchDelete(existing.map(({ type }) => keys.syncCheckpoint(tokenHash, type)));
};

/**
 * A synced record with its change id; an asset's also with its EXIF's, and a user's with their
 * metadata's (shared/db/changes.ts, `parts`): absent on items written before those existed.
 */
export interface Change<T> {
  updateId: string;
  record: T;
  partIds?: { exif?: string | undefined; metadata?: string | undefined; unlock?: string | undefined };
}

const decoded = async function* <T>(items: AsyncIterable<Item>, read: (item: Item) => T): AsyncGenerator<Change<T>> {
  for await (const item of items) yield { updateId: updateIdOf(item), record: read(item), partIds: partIdsOf(item) };
};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The change ids of an item's parts that the stream sends as types of their own. */
export const partIdsOf = (item: Item): Change<unknown>['partIds'] => ({
  exif: text(item.exifUpdateId),
  metadata: text(item.metadataUpdateId),
  unlock: text(item.unlockUpdateId),
});

export const assetChanges = (ownerId: string, window: Window) => decoded(changesIn(syncScopes.assets(ownerId), window), assetCodec.read);
export const faceChanges = (ownerId: string, window: Window) => decoded(changesIn(syncScopes.faces(ownerId), window), faceCodec.read);
export const personChanges = (ownerId: string, window: Window) => decoded(changesIn(syncScopes.people(ownerId), window), personCodec.read);
export const userChanges = (window: Window) => decoded(changesIn(syncScopes.users(), window), userCodec.read);
export const memoryChanges = (ownerId: string, window: Window) =>
  decoded(changesIn(syncScopes.memories(ownerId), window), (item): MemoryRecord => memoryCodec.read(item));
export const stackChanges = (ownerId: string, window: Window) => decoded(changesIn(syncScopes.stacks(ownerId), window), stackCodec.read);
/** An owner's assets whose photo edits changed: each asset's edits as they are now (AssetEditsV1). */
export const assetEditChanges = (ownerId: string, window: Window) =>
  decoded(changesIn(syncScopes.assetEdits(ownerId), window), assetEditsCodec.read);
/**
 * An owner's assets whose OCR lines changed, each asset's lines as they are now (AssetOcrV1), sent
 * only while its asset is there (an asset deleted meanwhile: its lines go with it), the assets read
 * a hundred at a time (BatchGetItem).
 */
export async function* assetOcrChanges(ownerId: string, window: Window): AsyncGenerator<Change<AssetOcrRecord>> {
  let batch: Change<AssetOcrRecord>[] = [];
  const flush = async function* () {
    const assets = await assetItems(batch.map((change) => change.record.assetId));
    const present = new Set(assets.filter((item) => item.ownerId === ownerId).map((item) => String(item.id)));
    for (const change of batch) if (present.has(change.record.assetId)) yield change;
    batch = [];
  };
  for await (const change of decoded(changesIn(syncScopes.assetOcr(ownerId), window), assetOcrCodec.read)) {
    batch.push(change);
    if (batch.length >= 100) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}
/** An owner's 16 asset metadata scopes (shared/db/changes.ts): their changes and their deletions. */
export const assetMetadataScopes = (ownerId: string): string[] =>
  assetMetadataShards.map((shard) => syncScopes.assetMetadata(ownerId, shard));

/**
 * An owner's assets' metadata keys that changed, each with its value as it is now (AssetMetadataV1):
 * the 16 change partitions merged in change order, each key sent only while its asset is there
 * (Immich joins the asset), so no line can name an asset the app has dropped. The assets are read
 * a hundred keys at a time (BatchGetItem, their owner alone).
 */
export async function* assetMetadataChanges(ownerId: string, window: Window): AsyncGenerator<Change<AssetMetadataRecord>> {
  const changes = mergeInOrder(
    assetMetadataScopes(ownerId).map((scope) => decoded(changesIn(scope, window), assetMetadataCodec.read)),
    (change) => change.updateId,
  );
  let batch: Change<AssetMetadataRecord>[] = [];
  const flush = async function* () {
    const assets = await assetItems(batch.map((change) => change.record.assetId));
    const present = new Set(assets.filter((item) => item.ownerId === ownerId).map((item) => String(item.id)));
    for (const change of batch) if (present.has(change.record.assetId)) yield change;
    batch = [];
  };
  for await (const change of changes) {
    batch.push(change);
    if (batch.length >= 100) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}
/** The owner's memories' entries that changed (added), as `{memoryId, assetId}`. */
export const memoryAssetChanges = (ownerId: string, window: Window) =>
  decoded(changesIn(syncScopes.memoryAssets(ownerId), window), (item) => ({
    memoryId: String(item.memoryId),
    assetId: String(item.assetId),
  }));
/**
 * An album's entries that changed (added), as `{albumId, assetId}`; not one whose asset is in the
 * locked folder (its status copy says so), which is leaving the album (docs/immich-compatibility.md,
 * "The locked folder").
 */
export async function* albumEntryChanges(albumId: string, window: Window): AsyncGenerator<Change<{ albumId: string; assetId: string }>> {
  // Only the fields sent (and the status that leaves a locked one out): a first sync holds a page of every album's at once.
  for await (const item of changesIn(syncScopes.albumEntries(albumId), window, ['albumId', 'assetId', 'visibility'])) {
    if (item.visibility === 'locked') continue;
    yield { updateId: updateIdOf(item), record: { albumId: String(item.albumId), assetId: String(item.assetId) } };
  }
}

/** A deletion record's id and what it names. */
export const deletions = async function* (scope: string, window: Window): AsyncGenerator<Change<Record<string, string>>> {
  for await (const item of deletionsIn(scope, window)) {
    const { pk: _pk, sk, type: _type, deleteId: _id, ttl: _ttl, ...data } = item;
    yield { updateId: String(sk), record: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, String(value)])) };
  }
};

/**
 * The deletions the stream sends, per entity (docs/data-model.md, pattern 63): each scope's in
 * change order, a record naming what went (the ids Immich's audit rows carry).
 */
export const deletionsOf = {
  assets: (ownerId: string, window: Window) => deletions(syncScopes.assets(ownerId), window),
  albums: (userId: string, window: Window) => deletions(syncScopes.albums(userId), window),
  albumUsers: (albumId: string, window: Window) => deletions(syncScopes.albumUsers(albumId), window),
  albumAssets: (albumId: string, window: Window) => deletions(syncScopes.albumAssets(albumId), window),
  partners: (userId: string, window: Window) => deletions(syncScopes.partners(userId), window),
  people: (ownerId: string, window: Window) => deletions(syncScopes.people(ownerId), window),
  faces: (ownerId: string, window: Window) => deletions(syncScopes.faces(ownerId), window),
  memories: (ownerId: string, window: Window) => deletions(syncScopes.memories(ownerId), window),
  memoryAssets: (ownerId: string, window: Window) => deletions(syncScopes.memoryAssets(ownerId), window),
  stacks: (ownerId: string, window: Window) => deletions(syncScopes.stacks(ownerId), window),
  userMetadata: (userId: string, window: Window) => deletions(syncScopes.userMetadata(userId), window),
  assetEdits: (ownerId: string, window: Window) => deletions(syncScopes.assetEdits(ownerId), window),
  /** The OCR lines runs replaced: each record names an asset and its replaced lines (`lineIds`, comma-separated). */
  assetOcr: (ownerId: string, window: Window) => deletions(syncScopes.assetOcr(ownerId), window),
  /** Explicit deletions only, the 16 scopes merged in change order. */
  assetMetadata: (ownerId: string, window: Window) =>
    mergeInOrder(
      assetMetadataScopes(ownerId).map((scope) => deletions(scope, window)),
      (change) => change.updateId,
    ),
  users: (window: Window) => deletions(syncScopes.users(), window),
} as const;

/**
 * The deletions of an owner's assets moved into the locked folder (shared/db/items/deletion.ts),
 * each with the albums it was in then (`albumIds`), for their partners and albums' users.
 */
export async function* lockedAssetDeletions(
  ownerId: string,
  window: Window,
): AsyncGenerator<Change<{ assetId: string; albumIds: string[] }>> {
  for await (const { updateId, record } of deletions(syncScopes.lockedAssets(ownerId), window))
    yield { updateId, record: { assetId: String(record.assetId), albumIds: (record.albumIds ?? '').split(',').filter(Boolean) } };
}

export const readAsset = (item: Item): AssetRecord => assetCodec.read(item);
export const readUser = (item: Item): UserRecord => userCodec.read(item);
export const readAlbum = (item: Item): AlbumRecord => albumCodec.read(item);

const stamp = (key: { pk: string; sk: string }, partition: string): Promise<boolean> =>
  writeIfPresent(
    updateWrite(key, 'SET gsi3pk = :partition', {
      condition: 'attribute_exists(pk) AND attribute_not_exists(gsi3pk)',
      values: { ':partition': partition },
    }),
  );

/**
 * Gives the items of a library stored before change ids their change id and change partition,
 * once (docs/data-model.md, "Earlier shapes"): the owner's assets and their faces, their people,
 * their albums' entries, then the user item, marked `changesIndexed`. Each write is conditional
 * on the item having none yet (a concurrent run, or a write of the item meanwhile, leaves it be),
 * so a run cut short is simply run again. Every user's own item is stamped too, for UsersV1.
 */
export const indexLibrary = async (ownerId: string): Promise<void> => {
  const user = await userItem(ownerId);
  if (!user || user.changesIndexed === true) return;
  for await (const page of queryPages(partitions.timeline(ownerId), { attributes: ['id', 'gsi3pk', 'faceIds'] })) {
    await inBatches(page, 16, async (item) => {
      const assetId = String(item.id);
      if (!item.gsi3pk) await stamp(keys.asset(assetId), partitions.changes(syncScopes.assets(ownerId)).value);
      for (const faceId of (item.faceIds as string[] | undefined) ?? [])
        await stamp(keys.assetFace(assetId, faceId), partitions.changes(syncScopes.faces(ownerId)).value);
    });
  }
  const people = await queryAll(partitions.userPeople(ownerId), { attributes: ['pk', 'sk', 'gsi3pk'] });
  await inBatches(
    people.filter((item) => !item.gsi3pk),
    16,
    async (item) => void (await stamp({ pk: String(item.pk), sk: String(item.sk) }, partitions.changes(syncScopes.people(ownerId)).value)),
  );
  for (const album of await ownAlbumItems(ownerId)) {
    const entries = await queryAll(partitions.albumAssets(String(album.id)), { attributes: ['pk', 'sk', 'gsi3pk'] });
    const unstamped = entries.filter((item) => !item.gsi3pk);
    await inBatches(
      unstamped,
      16,
      async (item) =>
        void (await stamp(
          { pk: String(item.pk), sk: String(item.sk) },
          partitions.changes(syncScopes.albumEntries(String(album.id))).value,
        )),
    );
    // Entries with change ids its marker does not know: forgotten, computed again with its summary (docs/data-model.md, "Album summaries").
    // So are its users' album sync markers (shared/db/album-sync.repository.ts).
    if (unstamped.length > 0) {
      await albumSyncRepo.forgetMarkers([ownerId, ...((album.sharedUserIds as string[] | undefined) ?? [])]);
      await writeOne(forgetEntriesMarker(String(album.id)));
    }
  }
  await writeIfPresent(
    updateWrite(keys.user(ownerId), 'SET gsi3pk = :partition, changesIndexed = :true', {
      condition: 'present',
      values: { ':partition': partitions.changes(syncScopes.users()).value, ':true': true },
    }),
  );
};

/**
 * Every user's own item in the users' change partition (UsersV1), for users stored before change
 * ids; the ids of every user, oldest first (whose libraries `indexLibrary` then gives theirs).
 */
export const indexUsers = async (): Promise<string[]> => {
  const users = await queryAll(partitions.users(), { attributes: ['id', 'gsi3pk'] });
  await inBatches(
    users.filter((item) => !item.gsi3pk),
    8,
    async (item) => void (await stamp(keys.user(String(item.id)), partitions.changes(syncScopes.users()).value)),
  );
  return users.map((item) => String(item.id));
};

/** Whether the table's change ids migration is done (the migrations item's `changeIds`: docs/data-model.md, "Earlier shapes"). */
export const changeIdsMigrated = (): Promise<boolean> => migrationsRepo.migrationDone('changeIds');

/** Marks the table's change ids migration done, at `at`. */
export const markChangeIdsMigrated = (at: string): Promise<void> => migrationsRepo.markMigrationDone('changeIds', at);

/** Marks a session's app to start its sync over, or clears that: the session and its listing, in one transaction. */
export const setPendingSyncReset = async (userId: string, tokenHash: string, pending: boolean): Promise<void> => {
  await transact([
    updateWrite(keys.session(tokenHash), 'SET isPendingSyncReset = :pending', { condition: 'present', values: { ':pending': pending } }),
    updateWrite(keys.userSession(userId, tokenHash), 'SET isPendingSyncReset = :pending', {
      condition: 'present',
      values: { ':pending': pending },
    }),
  ]).catch((error: unknown) => {
    // Ended meanwhile: nothing to mark.
    if (!isCancelled(error)) throw error;
  });
};
