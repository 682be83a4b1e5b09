import type { AlbumSyncMark } from '../../db/album-sync.repository.ts';
import * as albumSyncRepo from '../../db/album-sync.repository.ts';
import { newChangeId } from '../../db/changes.ts';
import * as entryOwnersRepo from '../../db/entry-owners.repository.ts';
import type { Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { AlbumMarkerScope, Membership } from '../../db/sync-relations.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { SyncEntityType, SyncEvent, SyncRequestType } from '../../model/sync.ts';
import { backfill, byUpdateId, type Context, fields, presentOf, sendDeletions, type TypeSyncs, windowOf } from './mechanics.ts';

/** An album's users (its owner as Immich's `owner` row, then the users it is shared with) within a window, in change order. */
async function* albumUserRows(membership: Membership, window: Window): AsyncGenerator<{ updateId: string; data: SyncEvent['data'] }> {
  const rows = [
    // The owner's row is as old as the album (Immich writes it with the album).
    { updateId: membership.albumCreateId, data: fields({ albumId: membership.albumId, userId: membership.ownerId, role: 'owner' }) },
    ...(await syncRelationsRepo.albumUsers(membership.albumId)).map((user) => ({
      updateId: user.updateId,
      data: fields({ albumId: membership.albumId, userId: user.userId, role: user.role }),
    })),
  ]
    .filter((row) => syncRepo.inWindow(row.updateId, window))
    .sort(byUpdateId);
  yield* rows;
}

/**
 * The albums whose `scope` (entries, users, or their deletions) may have changed within the window:
 * one whose marker there is not after the window's start has nothing in it, and is not read
 * (docs/data-model.md, "Album summaries").
 */
export const changedWithin = (albums: readonly Membership[], scope: AlbumMarkerScope, window: Window): Membership[] =>
  albums.filter((album) => !syncRelationsRepo.albumUnchangedSince(album, scope, window.after));

/**
 * The owners and members of `albums`, and the owners of their entries' assets, but `userId`: every
 * user whose asset changes may be of an asset in one of them.
 */
export const albumUsersBut = (
  albums: readonly { ownerId: string; sharedUserIds: readonly string[]; entryOwners: readonly string[] }[],
  userId: string,
): Set<string> => {
  const users = new Set<string>();
  for (const album of albums) {
    users.add(album.ownerId);
    for (const member of album.sharedUserIds) users.add(member);
    for (const owner of album.entryOwners) users.add(owner);
  }
  users.delete(userId);
  return users;
};

/** The user's album sync marker and the deployment's generation, read once a request (album-sync.repository.ts). */
const reads = new WeakMap<Context, Promise<albumSyncRepo.MarkerRead>>();
const marks = new WeakMap<Context, Promise<AlbumSyncMark | undefined>>();
const readOf = (context: Context): Promise<albumSyncRepo.MarkerRead> => {
  let read = reads.get(context);
  if (!read) {
    read = albumSyncRepo.readMarker(context.userId);
    reads.set(context, read);
  }
  return read;
};
const markOf = (context: Context): Promise<AlbumSyncMark | undefined> => {
  let mark = marks.get(context);
  if (!mark) {
    mark = readOf(context).then((read) => read.mark);
    marks.set(context, mark);
  }
  return mark;
};

/**
 * The request types whose album reads a quiet sync skips. A completed stream that asked for every
 * one of them says so in its SyncCompleteV1 ack (`SyncCompleteV1|<snapshot>|albums`: the app sends
 * acks back as they came); only such a checkpoint lets the next sync be quiet, so a completed stream
 * of other types alone never stands for one that read the albums.
 */
export const albumRequestTypes: readonly SyncRequestType[] = [
  'AlbumsV2',
  'AlbumUsersV1',
  'AlbumToAssetsV1',
  'AlbumAssetsV2',
  'AlbumAssetExifsV1',
];
export const albumsRead = 'albums';

/** Deletion types: without a checkpoint, a completed sync had none to send (it would have acked one). */
const deletionTypes = new Set<SyncEntityType>(['AlbumDeleteV1', 'AlbumUserDeleteV1', 'AlbumToAssetDeleteV1']);

/**
 * Whether nothing of the user's albums changed that `types` could send (docs/data-model.md, "Album
 * summaries"), so they read none of them: the user's album sync marker is trusted (`unshared`: and
 * says no album of theirs has another user) and settled before the session's last completed sync
 * (its SyncCompleteV1 checkpoint, the present it read up to), and each type (but a deletion type)
 * has a checkpoint: one the app never had read as before.
 */
export const albumsQuiet = async (
  context: Context,
  types: readonly SyncEntityType[],
  options: { unshared?: boolean } = {},
): Promise<boolean> => {
  const mark = await markOf(context);
  if (!albumSyncRepo.trusted(mark) || (options.unshared && mark.shared)) return false;
  if (types.some((type) => !deletionTypes.has(type) && context.checkpoints[type] === undefined)) return false;
  const complete = context.checkpoints.SyncCompleteV1;
  return complete?.extraId === albumsRead && syncRelationsRepo.settledBefore(mark.changeId, complete.updateId);
};

/**
 * Whether the user's album sync marker is trusted and says no album of theirs has another user,
 * and settled before this request's snapshot (a marker just moved may be a share's not yet written).
 */
export const albumsUnshared = async (context: Context): Promise<boolean> => {
  const mark = await markOf(context);
  return albumSyncRepo.trusted(mark) && !mark.shared && syncRelationsRepo.settledBefore(mark.changeId, context.nowId);
};

/**
 * The other users of the user's albums as their album sync marker knows them (trusted, settled
 * before this request's snapshot, no share since a sync learnt them: a share removes them), or
 * undefined: not known.
 */
export const albumOthers = async (context: Context): Promise<readonly string[] | undefined> => {
  const mark = await markOf(context);
  if (!albumSyncRepo.trusted(mark) || mark.others === undefined) return undefined;
  return syncRelationsRepo.settledBefore(mark.changeId, context.nowId) ? mark.others : undefined;
};

/**
 * The owners of the albums' entries who are none of their users and no user any more: a purge that
 * finished after their assets had left the album (the purge takes them out of the albums their
 * assets were still in: shared/db/items/album-mark.ts, `ownerGone`). Taken out of those albums'
 * summary items here, so that their ids are not kept; a BatchGetItem of the few owners of entries
 * who are not users of the albums.
 */
const goneOwners = async (albums: readonly Membership[], userId: string): Promise<Set<string>> => {
  const users = new Set(albums.flatMap((album) => [album.ownerId, ...album.sharedUserIds]));
  const strangers = [...new Set(albums.flatMap((album) => album.entryOwners))].filter((owner) => owner !== userId && !users.has(owner));
  if (strangers.length === 0) return new Set();
  const gone = new Set(await syncRelationsRepo.usersGone(strangers));
  if (gone.size > 0)
    await entryOwnersRepo.forgetOwners(
      albums.filter((album) => album.entryOwners.some((owner) => gone.has(owner))).map((album) => album.albumId),
      [...gone],
    );
  return gone;
};

/**
 * The user's albums, for every type that reads them (read after the user's album sync marker, so a
 * write of them in between moved it). When the marker is not trusted, or says otherwise than they
 * show, it is learnt again, once a request (a table from before markers converges on the first
 * sync that reads the albums): only while it is still as read, and `shared` false only when the
 * marker settled before the albums were read (a share whose marker moved just before may not have
 * been written yet).
 */
export const albumsOf = async (context: Context): Promise<Membership[]> => {
  let learnt = learning.get(context);
  if (!learnt) {
    learnt = (async () => {
      const mark = await markOf(context);
      const readFrom = newChangeId();
      const albums = await context.albums();
      const gone = await goneOwners(albums, context.userId);
      const others = [...albumUsersBut(albums, context.userId)].filter((userId) => !gone.has(userId));
      // Another user: an album's owner or member, or the owner of an asset in one (a partner's photo).
      const shared = others.length > 0;
      const unowned = albums.filter((album) => !album.ownerKnown).map((album) => ({ albumId: album.albumId, ownerId: album.ownerId }));
      // The albums show another user: the types after this one in the request go by what they show.
      if (mark && shared && mark.shared !== true) marks.set(context, Promise.resolve({ ...mark, shared }));
      if (mark?.others && others.some((userId) => !mark.others?.includes(userId)))
        marks.set(context, Promise.resolve({ ...mark, shared: shared || mark.shared, others: undefined }));
      if (albumSyncRepo.knows(mark, { shared, others }) && unowned.length === 0) return;
      if (mark && !shared && !syncRelationsRepo.settledBefore(mark.changeId, readFrom)) return;
      const { generation, learnable } = await readOf(context);
      await albumSyncRepo.learn(context.userId, mark, { shared, others, readFrom, unowned, generation, learnable });
    })();
    learning.set(context, learnt);
  }
  await learnt;
  return context.albums();
};
const learning = new WeakMap<Context, Promise<void>>();

/** The user's albums (theirs and those shared with them), their users and their entries. */
export const albumTypes: TypeSyncs = {
  AlbumsV2: async (context) => {
    if (await albumsQuiet(context, ['AlbumDeleteV1', 'AlbumV2'])) return;
    await sendDeletions(
      context,
      'AlbumDeleteV1',
      (window) => [syncRepo.deletionsOf.albums(context.userId, window)],
      ({ albumId }) => ({ albumId }),
    );
    const window = presentOf(context, 'AlbumV2');
    const rows = (await albumsOf(context)).filter((membership) => syncRepo.inWindow(membership.updateId, window)).sort(byUpdateId);
    for (const membership of rows)
      await context.send('AlbumV2', { kind: 'album', album: membership.album() }, { type: 'AlbumV2', updateId: membership.updateId });
  },
  AlbumUsersV1: async (context) => {
    if (await albumsQuiet(context, ['AlbumUserDeleteV1', 'AlbumUserV1'])) return;
    const albums = await albumsOf(context);
    await sendDeletions(
      context,
      'AlbumUserDeleteV1',
      (window) => changedWithin(albums, 'userDeletions', window).map((album) => syncRepo.deletionsOf.albumUsers(album.albumId, window)),
      ({ albumId, userId }) => ({ albumId, userId }),
    );
    await backfill(context, albums, { backfill: 'AlbumUserBackfillV1', upsert: 'AlbumUserV1' }, albumUserRows);
    const window = windowOf(context, 'AlbumUserV1');
    for await (const row of syncRepo.mergeInOrder(
      changedWithin(albums, 'users', window).map((album) => albumUserRows(album, window)),
      (row) => row.updateId,
    ))
      await context.send('AlbumUserV1', row.data, { type: 'AlbumUserV1', updateId: row.updateId });
  },
  AlbumToAssetsV1: async (context) => {
    if (await albumsQuiet(context, ['AlbumToAssetDeleteV1', 'AlbumToAssetV1'])) return;
    const albums = await albumsOf(context);
    await sendDeletions(
      context,
      'AlbumToAssetDeleteV1',
      (window) => changedWithin(albums, 'entryDeletions', window).map((album) => syncRepo.deletionsOf.albumAssets(album.albumId, window)),
      ({ albumId, assetId }) => ({ albumId, assetId }),
    );
    await backfill(context, albums, { backfill: 'AlbumToAssetBackfillV1', upsert: 'AlbumToAssetV1' }, (album, window) =>
      (async function* () {
        for await (const change of syncRepo.albumEntryChanges(album.albumId, window))
          yield { updateId: change.updateId, data: fields(change.record) };
      })(),
    );
    const window = windowOf(context, 'AlbumToAssetV1');
    for await (const change of syncRepo.mergeInOrder(
      changedWithin(albums, 'entries', window).map((album) => syncRepo.albumEntryChanges(album.albumId, window)),
      (change) => change.updateId,
    ))
      await context.send('AlbumToAssetV1', fields(change.record), { type: 'AlbumToAssetV1', updateId: change.updateId });
  },
};
