import type { Window } from '../../db/sync.repository.ts';
import * as syncRepo from '../../db/sync.repository.ts';
import type { AlbumMarkerScope, Membership } from '../../db/sync-relations.repository.ts';
import * as syncRelationsRepo from '../../db/sync-relations.repository.ts';
import type { SyncEvent } from '../../model/sync.ts';
import { backfill, byUpdateId, fields, presentOf, sendDeletions, type TypeSyncs, windowOf } from './mechanics.ts';

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

/** The user's albums (theirs and those shared with them), their users and their entries. */
export const albumTypes: TypeSyncs = {
  AlbumsV2: async (context) => {
    await sendDeletions(
      context,
      'AlbumDeleteV1',
      (window) => [syncRepo.deletionsOf.albums(context.userId, window)],
      ({ albumId }) => ({ albumId }),
    );
    const window = presentOf(context, 'AlbumV2');
    const rows = (await context.albums()).filter((membership) => syncRepo.inWindow(membership.updateId, window)).sort(byUpdateId);
    for (const membership of rows)
      await context.send('AlbumV2', { kind: 'album', album: membership.album() }, { type: 'AlbumV2', updateId: membership.updateId });
  },
  AlbumUsersV1: async (context) => {
    const albums = await context.albums();
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
    const albums = await context.albums();
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
