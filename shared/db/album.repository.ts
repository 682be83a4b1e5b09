import type { AlbumMember, AlbumRecord, AlbumShare, AlbumSummary, AlbumUser } from '../model/album.ts';
import { newestLiveMember, roleOf, summarize } from '../model/album.ts';
import type { AssetRecord } from '../model/asset.ts';
import * as albumSyncRepo from './album-sync.repository.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { changeIdAt, newChangeId } from './changes.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { type AlbumSummaryItem, albumCodec, albumMemberCodec, albumUserCodec, currentSummary, readSummaryItem } from './items/album.ts';
import { type AlbumMarkers, albumMarkerScopes } from './items/album-mark.ts';
import * as albumWrites from './items/album-writes.ts';
import * as auditWrites from './items/audit-writes.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { done, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import * as syncScopes from './sync-scopes.ts';
import {
  checkWrite,
  deleteWrite,
  isCancelled,
  transact,
  transactGroups,
  tryTransact,
  tryWriteOne,
  unexpected,
  updateWrite,
  type Write,
  writeIfPresent,
  writeOne,
} from './transact.ts';

/** Who has the album: its owner and the users it is shared with (whose album sync markers its writes move: album-sync.repository.ts). */
const usersOf = (album: AlbumRecord): string[] => [album.ownerId, ...album.sharedUserIds];

/**
 * The album's users now (GetItem of the album), with those it had as read: read just before a
 * write that has no condition on them makes its change ids, so a user the album gained since the
 * request read it (a share meanwhile) gets their marker moved too.
 */
const usersNow = async (album: AlbumRecord): Promise<string[]> => {
  const item = await getItem(keys.album(album.ownerId, album.id));
  return [...usersOf(album), ...(item ? albumCodec.read(item).sharedUserIds : [])];
};

export const get = async (ownerId: string, albumId: string): Promise<AlbumRecord | undefined> => {
  const item = await getItem(keys.album(ownerId, albumId));
  return item ? albumCodec.read(item) : undefined;
};

export const list = async (ownerId: string): Promise<AlbumRecord[]> =>
  (await queryAll(partitions.userAlbums(ownerId))).map(albumCodec.read);

/** Every entry of an album: one Query on the album's partition. */
export const listMembers = async (albumId: string): Promise<AlbumMember[]> =>
  (await queryAll(partitions.albumAssets(albumId))).map(albumMemberCodec.read);

/** The ids of the albums an asset is in (gsi2). */
export const listIdsOfAsset = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetAlbums(assetId), { attributes: ['albumId'] })).map((item) => String(item.albumId));

/**
 * Creates an album with its first assets: the album and up to 49 entries (each with its asset's
 * album count) are one transaction; further entries follow 50 a transaction, and if one fails
 * everything written is undone, so a failed create leaves nothing.
 */
export const create = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<void> => {
  // The users it is shared with are in the first transaction (their items with the album's list).
  const shares =
    album.sharedUserIds.length > 0
      ? albumWrites
          .shareWith(
            { ...album, sharedUserIds: [], userRoles: {} },
            album.sharedUserIds.map((userId) => ({ userId, role: roleOf(album, userId) })),
            album.updatedAt,
          )
          .slice(1)
          // A new album: nothing can have changed it.
          .map(unexpected)
      : [];
  const room = Math.floor((99 - shares.length) / 2);
  const [first = [], ...rest] = [assets.slice(0, room), ...chunk(assets.slice(room), 50)];
  // Each transaction moves the album's change marker (built last: docs/data-model.md, "Album summaries").
  const writes = [albumWrites.create(album), ...shares, ...first.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt))];
  // Its users' album sync markers, after every change id of its writes was made.
  await albumSyncRepo.moveMarkers(usersOf(album), { shared: album.sharedUserIds.length > 0 || holdsOthers(usersOf(album), assets) });
  await transact([...writes, albumWrites.mark(album.id, writes, { fresh: true, ownerId: album.ownerId })]);
  const done: AssetRecord[] = [...first];
  try {
    // Each later part's writes are made just before it is written, and the markers moved again
    // after them: a sync between two parts completes with the album part filled, and what the
    // later parts add must not be older than its markers (docs/data-model.md, "Album summaries").
    for (const part of rest) {
      const joins = part.flatMap((asset) => albumWrites.join(album.id, asset, album.createdAt));
      await albumSyncRepo.moveMarkers(usersOf(album));
      await transact([...joins, albumWrites.mark(album.id, joins, { ownerId: album.ownerId })]);
      done.push(...part);
    }
  } catch (error) {
    for (const part of chunk(done, 50)) await transact(part.flatMap((asset) => albumWrites.leave(album.id, asset.id, { albumGone: true })));
    // A sync meanwhile may have sent the album: its users learn it is gone.
    const gone = usersOf(album).map((userId) => deletionWrites.albumGone(userId, album.id));
    await albumSyncRepo.moveMarkers(usersOf(album));
    await transact(gone);
    await batchDelete(
      [keys.album(album.ownerId, album.id), ...album.sharedUserIds.map((userId) => keys.albumUser(album.id, userId))],
      'recorded',
    );
    await removeSummary(album.id);
    throw error;
  }
};

/**
 * Whether some of `assets` are of a user who is not one of the album's `users` (a partner's photo an
 * editor adds): its users' apps then get that user's asset changes too, so their album sync markers
 * no longer know who their albums' other users are (the marker's `shared` move).
 */
const holdsOthers = (users: readonly string[], assets: readonly AssetRecord[]): boolean =>
  assets.some((asset) => !users.includes(asset.ownerId));

/** What became of one asset of an add or a remove: written, or refused by the condition that stopped it. */
export type MemberOutcome = Outcome<'member-condition' | 'asset-missing'>;

const outcomeOf = (failedAt: number | undefined): MemberOutcome =>
  failedAt === undefined ? done() : refused(failedAt === 0 ? 'member-condition' : 'asset-missing');

/**
 * Adds entries, each with its asset's album count, each asset's pair of writes all or nothing:
 * an entry a concurrent request added first is `member-condition` (already in), an asset deleted
 * meanwhile `asset-missing`, and what is reported as done is exactly what was written.
 */
export const addMembers = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<MemberOutcome[]> => {
  const now = new Date().toISOString();
  const users = await usersNow(album);
  const groups = assets.map((asset) => albumWrites.join(album.id, asset, now));
  await albumSyncRepo.moveMarkers(users, { shared: holdsOthers(users, assets) });
  return (await transactGroups(groups, { each: (writes) => albumWrites.mark(album.id, writes, { ownerId: album.ownerId }) })).map(
    outcomeOf,
  );
};

/** Removes entries, as `addMembers` adds them: an entry already gone is `member-condition`. */
export const removeMembers = async (
  album: AlbumRecord,
  assetIds: readonly string[],
  options: { albumGone?: boolean } = {},
): Promise<MemberOutcome[]> => {
  // A deleted album's entries leaving need no marker: no one lists or syncs the album any more.
  if (options.albumGone)
    return (await transactGroups(assetIds.map((assetId) => albumWrites.leave(album.id, assetId, options)))).map(outcomeOf);
  const users = await usersNow(album);
  const groups = assetIds.map((assetId) => albumWrites.leave(album.id, assetId, options));
  await albumSyncRepo.moveMarkers(users);
  return (await transactGroups(groups, { each: (writes) => albumWrites.mark(album.id, writes, { ownerId: album.ownerId }) })).map(
    outcomeOf,
  );
};

/**
 * Sets the album's thumbnail and `updatedAt`. A thumbnail is set only while its asset exists
 * (checked in the same transaction), so a concurrent delete for good can never leave the album
 * pointing at it: then the newest asset still in the album is taken instead (Immich's choice),
 * never one whose check failed (an asset deleted for good leaves its entries just after its own
 * delete, so the entries may still list it). After five such tries only `updatedAt` is written.
 */
export const touch = async (album: AlbumRecord, thumbnailId: string | null, now: string): Promise<void> => {
  const failed = new Set<string>();
  let thumbnail = thumbnailId;
  for (let attempt = 0; thumbnail !== null && attempt < 5; attempt++) {
    try {
      const users = await usersNow(album);
      const write = albumWrites.touch(album, thumbnail, now);
      await albumSyncRepo.moveMarkers(users);
      await transact([write, checkWrite(keys.asset(thumbnail), { condition: 'attribute_exists(pk)' })]);
      return;
    } catch (error) {
      if (!isCancelled(error)) throw error;
      failed.add(thumbnail);
      thumbnail = newestLiveMember((await listMembers(album.id)).filter((member) => !failed.has(member.assetId)));
    }
  }
  const users = await usersNow(album);
  const write = thumbnail === null ? albumWrites.touch(album, null, now) : albumWrites.set(album, { updatedAt: now });
  await albumSyncRepo.moveMarkers(users);
  await writeOne(write);
};

/**
 * Sets the album's own fields. A new thumbnail must be in the album, and its asset still there,
 * when written (checked in the same transaction), so a concurrent removal or delete for good cannot
 * leave the album pointing elsewhere. When the
 * write loses to a concurrent one, the album is read again to tell which: deleted meanwhile
 * (`album-gone`), or the thumbnail left it (`thumbnail-gone`).
 */
export const updateFields = async (album: AlbumRecord, fields: Partial<AlbumRecord>): Promise<Outcome<'album-gone' | 'thumbnail-gone'>> => {
  const thumbnail = fields.albumThumbnailAssetId;
  try {
    const users = await usersNow(album);
    const write = albumWrites.set(album, fields);
    await albumSyncRepo.moveMarkers(users);
    await transact([
      write,
      // Its entry, and its asset: an asset deleted for good leaves its entries just after its own delete.
      ...(thumbnail
        ? [
            checkWrite(keys.albumAsset(album.id, thumbnail), { condition: 'attribute_exists(pk)' }),
            checkWrite(keys.asset(thumbnail), { condition: 'attribute_exists(pk)' }),
          ]
        : []),
    ]);
    return done();
  } catch (error) {
    if (!isCancelled(error)) throw error;
    return refused((await get(album.ownerId, album.id)) ? 'thumbnail-gone' : 'album-gone');
  }
};

/**
 * Deletes the album item, only while no shared link points at it (its `sharedLinkCount` is kept
 * exact with the links) and its users are as read: a link made meanwhile, or a user it was shared
 * with meanwhile, makes this `changed` (read it again), so no link is left pointing at a deleted
 * album and every user it had learns it is gone; one deleted by a concurrent request is `gone`.
 * Entries are removed afterwards (removeMembers), once no request can add more.
 */
export const deleteItem = async (album: AlbumRecord): Promise<Outcome<'gone' | 'changed'>> => {
  const writes = [
    deleteWrite(keys.album(album.ownerId, album.id), {
      condition:
        'attribute_exists(pk) AND (attribute_not_exists(sharedLinkCount) OR sharedLinkCount = :zero) AND ' +
        (album.sharedUserIds.length > 0
          ? 'sharedUserIds = :users'
          : '(attribute_not_exists(sharedUserIds) OR size(sharedUserIds) = :zero)'),
      values: { ':zero': 0, ...(album.sharedUserIds.length > 0 ? { ':users': [...album.sharedUserIds] } : {}) },
      refusal: 'changed',
      sync: 'recorded',
    }),
    // Its owner and every user it is shared with lose it (the sync stream's AlbumDeleteV1).
    ...[album.ownerId, ...album.sharedUserIds].map((userId) => deletionWrites.albumGone(userId, album.id)),
    // The apps' sync learns of it (GET /audit/deletes?entityType=ALBUM).
    auditWrites.deleted(album.ownerId, 'ALBUM', album.id),
  ];
  await albumSyncRepo.moveMarkers(usersOf(album));
  const deleted = await tryTransact(writes);
  if (deleted.ok) return done();
  return refused((await get(album.ownerId, album.id)) ? 'changed' : 'gone');
};

/** A share of an album whose owner is deleted (hidden, docs/data-model.md) is no share until a restore. */
const liveShare = (item: Record<string, unknown>): boolean => item.ownerDeleted !== true;

/** Whether an album is shared with a user: its albumUser item (one GetItem), with the album's owner. */
export const getUser = async (albumId: string, userId: string): Promise<AlbumUser | undefined> => {
  const item = await getItem(keys.albumUser(albumId, userId));
  return item && liveShare(item) ? albumUserCodec.read(item) : undefined;
};

/** Which of these albums are shared with the user (BatchGetItem of their albumUser items). */
export const albumsSharedWithAmong = async (
  albumIds: readonly string[],
  userId: string,
  options: { consistent?: boolean } = {},
): Promise<AlbumUser[]> =>
  (
    await batchGet(
      [...new Set(albumIds)].map((albumId) => keys.albumUser(albumId, userId)),
      options,
    )
  )
    .filter(liveShare)
    .map(albumUserCodec.read);

/** Those of `albumIds` that `userId` owns: one BatchGetItem of the albums under the user. */
export const albumsOwnedAmong = async (
  albumIds: readonly string[],
  userId: string,
  options: { consistent?: boolean } = {},
): Promise<AlbumRecord[]> =>
  (
    await batchGet(
      [...new Set(albumIds)].map((albumId) => keys.album(userId, albumId)),
      options,
    )
  ).map(albumCodec.read);

/** The albums of these shares that exist, read under their owners (BatchGetItem, 100 a call). */
export const albumsOfShares = async (
  shares: readonly Pick<AlbumUser, 'albumId' | 'ownerId'>[],
  options: { consistent?: boolean } = {},
): Promise<AlbumRecord[]> =>
  (
    await batchGet(
      shares.map((share) => keys.album(share.ownerId, share.albumId)),
      options,
    )
  ).map(albumCodec.read);

/** The ids of the albums shared with a user (their albumUser items on gsi2). */
export const listIdsSharedWith = async (userId: string): Promise<string[]> =>
  (await queryAll(partitions.albumsSharedWith(userId), { attributes: ['albumId', 'ownerDeleted'] }))
    .filter(liveShare)
    .map((item) => String(item.albumId));

/** Every share of an album with a user, hidden ones too (their purge: each is left for good). */
export const listSharesOf = async (userId: string): Promise<AlbumUser[]> =>
  (await queryAll(partitions.albumsSharedWith(userId))).map(albumUserCodec.read);

/** The albums shared with a user: Query gsi2 `SHAREDWITH#<userId>`, then BatchGetItem of the albums. */
export const listSharedWith = async (userId: string): Promise<AlbumRecord[]> => {
  const shares = (await queryAll(partitions.albumsSharedWith(userId))).filter(liveShare).map(albumUserCodec.read);
  return (await batchGet(shares.map((share) => keys.album(share.ownerId, share.albumId)))).map(albumCodec.read);
};

/**
 * The writes with the album's markers moved after them, as one transaction, its users' album sync
 * markers moved before it (`users`: those it had as read, and those it gains).
 */
const withMark = async (
  album: AlbumRecord,
  writes: readonly Write<'changed'>[],
  users: readonly string[],
  options: { shared?: boolean } = {},
): Promise<Outcome<'changed'>> => {
  await albumSyncRepo.moveMarkers(users, options);
  return tryTransact([...writes, albumWrites.mark(album.id, writes, { ownerId: album.ownerId })]);
};

/** Shares an album with users (all new to it), only if the album is still as read: else `changed`. */
export const shareAlbum = (album: AlbumRecord, shares: readonly AlbumShare[], now: string): Promise<Outcome<'changed'>> =>
  withMark(album, albumWrites.shareWith(album, shares, now), [...usersOf(album), ...shares.map((share) => share.userId)], {
    shared: true,
  });

/** Changes a shared user's role, only if the album is still as read: else `changed`. */
export const setUserRole = (album: AlbumRecord, share: AlbumShare, now: string): Promise<Outcome<'changed'>> =>
  withMark(album, albumWrites.setRole(album, share, now), usersOf(album));

/** Stops sharing an album with a user, only if the album is still as read: else `changed` (the user's marker moves too: they lose it). */
export const unshareAlbum = (album: AlbumRecord, userId: string, now: string): Promise<Outcome<'changed'>> =>
  withMark(album, albumWrites.unshareWith(album, userId, now), usersOf(album));

/** Removes the shares of a deleted album (its users' items). */
export const removeUsers = async (album: AlbumRecord): Promise<void> => {
  await batchDelete(
    album.sharedUserIds.map((userId) => keys.albumUser(album.id, userId)),
    'with-parent',
  );
};

/**
 * Hides (`deleted`) or shows again the albums a user owns, when they are deleted or restored (as
 * Immich leaves a deleted owner's albums out: pattern 61). The album item is marked too, so its
 * change id moves (the album is sent again on a restore, as Immich's `restoreAll` moves it); each
 * share is marked, and hidden, the user it was shared with loses the album (its deletion recorded
 * in the same transaction: AlbumDeleteV1); shown again, the share gets a new creation id, so the
 * album's users and entries come back to that user's apps as backfills, as for a new share. A
 * share ended meanwhile is skipped.
 */
export const markOwnerDeleted = async (ownerId: string, deleted: boolean): Promise<void> => {
  const ignoreGone = (error: unknown) => {
    if (!isCancelled(error)) throw error;
  };
  for (const album of await list(ownerId)) {
    const albumWrite = updateWrite(keys.album(ownerId, album.id), deleted ? 'SET ownerDeleted = :true' : 'REMOVE ownerDeleted', {
      condition: 'present',
      ...(deleted ? { values: { ':true': true } } : {}),
    });
    const shareWrites = album.sharedUserIds.map((userId) => {
      const writes = deleted
        ? [
            updateWrite(keys.albumUser(album.id, userId), 'SET ownerDeleted = :true', {
              condition: 'present',
              values: { ':true': true },
            }),
            deletionWrites.albumGone(userId, album.id),
          ]
        : [
            updateWrite(keys.albumUser(album.id, userId), 'SET createId = :createId REMOVE ownerDeleted', {
              condition: 'ownerDeleted = :true',
              values: { ':createId': newChangeId(), ':true': true },
            }),
          ];
      return writes;
    });
    // Its users' album sync markers, after every change id of these writes was made; a restored
    // owner's shared album is shared again for its members (a marker learnt while the owner was
    // deleted said otherwise).
    await albumSyncRepo.moveMarkers(usersOf(album), { shared: !deleted && album.sharedUserIds.length > 0 });
    await writeIfPresent(albumWrite);
    await Promise.all(
      shareWrites.map((writes) => transact([...writes, albumWrites.mark(album.id, writes, { ownerId: album.ownerId })]).catch(ignoreGone)),
    );
  }
};

/** The live shares of albums with a user (gsi2 `SHAREDWITH#<userId>`), each with its album's owner: who the user shares albums with. */
export const listLiveAlbumSharesOf = async (userId: string): Promise<AlbumUser[]> =>
  (await queryAll(partitions.albumsSharedWith(userId))).filter(liveShare).map(albumUserCodec.read);

/** The summary items of albums (BatchGetItem, 100 a call), by album id: those that have one. */
export const summaryItems = async (albumIds: readonly string[]): Promise<Map<string, AlbumSummaryItem>> =>
  new Map(
    (await batchGet(albumIds.map((albumId) => keys.albumSummary(albumId)))).map((item) => [
      String(item.pk).slice('ALBUM#'.length),
      readSummaryItem(item),
    ]),
  );

/**
 * An album's summary: the one kept, while current; else computed from its entries (one consistent
 * Query, read after the marker was) and kept, only while no write of its entries came meanwhile
 * (docs/data-model.md, "Album summaries"). Lost to one, the summary computed is answered, as a
 * read of the entries a moment earlier would have been, and the next call computes it again.
 */
export const summaryOf = async (albumId: string, item: AlbumSummaryItem | undefined): Promise<AlbumSummary> => {
  const current = currentSummary(item);
  if (current) return current;
  const known = albumMarkerScopes.every((scope) => item?.markers?.[scope] !== undefined);
  const [entries, markers] = await Promise.all([queryAll(partitions.albumAssets(albumId)), known ? undefined : otherMarkers(albumId)]);
  const summary = summarize(entries.map(albumMemberCodec.read));
  const found = markers && { ...markers, entries: entries.map(updateIdOf).reduce((a, b) => (a > b ? a : b), '') };
  await tryWriteOne(albumWrites.keepSummary(albumId, summary, item?.contentId, found));
  return summary;
};

/** An item's change id, as the sync stream reads it (shared/db/sync.repository.ts, `updateIdOf`: one written before change ids, from its dates). */
const updateIdOf = (item: Record<string, unknown>): string =>
  typeof item.updateId === 'string'
    ? item.updateId
    : changeIdAt(Date.parse(String(item.updatedAt ?? item.createdAt ?? item.addedAt ?? 0)) || 0);

/**
 * The markers of an album from before markers, but its entries' (read with its summary): the
 * latest change of its users (their items), and its newest deletion of each kind ('' for none).
 */
const otherMarkers = async (albumId: string): Promise<AlbumMarkers> => {
  const newest = async (scope: string): Promise<string> => {
    for await (const [deletion] of queryPages(partitions.deletions(scope), { descending: true, pageSize: 1, attributes: ['sk'] }))
      if (deletion) return String(deletion.sk);
    return '';
  };
  const [users, entryDeletions, userDeletions] = await Promise.all([
    queryAll({ value: keys.albumUser(albumId, '').pk, prefix: 'USER#' }),
    newest(syncScopes.albumAssets(albumId)),
    newest(syncScopes.albumUsers(albumId)),
  ]);
  return { users: users.map(updateIdOf).reduce((a, b) => (a > b ? a : b), ''), entryDeletions, userDeletions };
};

/** A deleted album's summary item goes once its entries have (a late write of one may leave it again: no one reads it). */
export const removeSummary = async (albumId: string): Promise<void> => {
  await batchDelete([keys.albumSummary(albumId)]);
};
