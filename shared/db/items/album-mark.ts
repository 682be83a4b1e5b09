import { newChangeId } from '../changes.ts';
import * as keys from '../item-keys.ts';
import * as syncScopes from '../sync-scopes.ts';
import { updateWrite, type Write } from '../transact.ts';

/**
 * An album's change markers, on its summary item (docs/data-model.md, "Album summaries"):
 * `contentId` moves with every write of its entries or users (a summary computed before is no
 * longer current), and one per scope the sync stream reads of it holds the change id of its latest
 * change there: its entries (`entriesId`), its users (`usersId`), and their deletions
 * (`entryDeletionsId`, `userDeletionsId`); `''` when it has had none. A scope's marker absent: not
 * known (an album from before markers, until its summary is first computed).
 */
export const albumMarkerScopes = ['entries', 'users', 'entryDeletions', 'userDeletions'] as const;
export type AlbumMarkerScope = (typeof albumMarkerScopes)[number];
export type AlbumMarkers = Partial<Record<AlbumMarkerScope, string>>;

export const markerAttribute = (scope: AlbumMarkerScope): string => `${scope}Id`;

/** The scope of the album's an item key is in, if any. */
const scopeOf = (albumId: string, pk: string, sk: string): AlbumMarkerScope | undefined => {
  if (pk === keys.albumAsset(albumId, '').pk) return sk.startsWith('ASSET#') ? 'entries' : sk.startsWith('USER#') ? 'users' : undefined;
  if (pk === keys.deletion(syncScopes.albumAssets(albumId), '').pk) return 'entryDeletions';
  if (pk === keys.deletion(syncScopes.albumUsers(albumId), '').pk) return 'userDeletions';
  return undefined;
};

/** The change ids a transaction's writes give the album's scopes (a put's or update's `updateId`, a deletion record's id). */
export const changesOf = (albumId: string, writes: readonly Write<string>[]): AlbumMarkers => {
  const latest: AlbumMarkers = {};
  for (const { item } of writes) {
    const key = (item.Put?.Item ?? item.Update?.Key) as { pk?: unknown; sk?: unknown } | undefined;
    if (typeof key?.pk !== 'string' || typeof key.sk !== 'string') continue;
    const scope = scopeOf(albumId, key.pk, key.sk);
    if (!scope) continue;
    const id =
      scope === 'entryDeletions' || scope === 'userDeletions'
        ? key.sk
        : (item.Put?.Item?.updateId ?? item.Update?.ExpressionAttributeValues?.[':updateId']);
    if (typeof id === 'string' && id > (latest[scope] ?? '')) latest[scope] = id;
  }
  return latest;
};

/** The owners of the assets of the entries `writes` put in the album (each entry names its asset's owner: ./album.ts). */
export const entryOwnersOf = (albumId: string, writes: readonly Write<string>[]): string[] => {
  const owners = new Set<string>();
  for (const { item } of writes) {
    const put = item.Put?.Item as { pk?: unknown; sk?: unknown; assetOwnerId?: unknown } | undefined;
    if (
      put?.pk === keys.albumAsset(albumId, '').pk &&
      typeof put.sk === 'string' &&
      put.sk.startsWith('ASSET#') &&
      typeof put.assetOwnerId === 'string'
    )
      owners.add(put.assetOwnerId);
  }
  return [...owners];
};

/**
 * Moves an album's markers, in a transaction that writes its entries or users (or their
 * deletions): `contentId` always, and each scope's to the latest change id of `writes` there
 * (`fresh`: a new album, whose other scopes have had nothing: `''`). An upsert with no condition,
 * so it never fails a transaction: a write of a deleted album's entries leaves an item no one
 * reads. On its own, without the album model, for the asset functions that move assets out of albums.
 * `ownerId`: the album's owner, kept on the item (the writers that know only the album's id find it there).
 * The owners of the assets its entries put join the album's entry owners (`entryOwners`, a string
 * set added to, not taken from when their assets leave: an owner whose assets all left stays, which
 * costs a sync reads of their asset changes, never a change missed); an album from before they
 * were kept learns them once (shared/services/sync/entry-owners.ts, which marks it
 * `entryOwnersLearnt`). `ownerGone`: the write took an asset of a user being purged out of it (all
 * of theirs go): they leave the set, and a sync drops any a finished purge left
 * (shared/services/sync/albums.ts).
 */
export const markAlbum = (
  albumId: string,
  writes: readonly Write<string>[] = [],
  options: { fresh?: boolean; ownerId?: string; ownerGone?: string } = {},
): Write => {
  const changes = changesOf(albumId, writes);
  const scopes = albumMarkerScopes.filter((scope) => options.fresh || changes[scope] !== undefined);
  const values: Record<string, unknown> = { ':id': newChangeId() };
  for (const scope of scopes) values[`:${scope}`] = changes[scope] ?? '';
  const sets = ['contentId = :id', ...scopes.map((scope) => `${markerAttribute(scope)} = :${scope}`)];
  const owners = entryOwnersOf(albumId, writes);
  // Whose album it is, for the writers that know only its id (album-sync.repository.ts, `usersOfAlbum`).
  if (options.ownerId !== undefined) {
    values[':ownerId'] = options.ownerId;
    sets.push('ownerId = :ownerId');
  }
  // A purged user's asset left it: they are no longer an owner of its entries (their other assets go too).
  let owning = '';
  if (owners.length > 0) {
    values[':owners'] = new Set(owners);
    owning = ' ADD entryOwners :owners';
  } else if (options.ownerGone !== undefined) {
    values[':gone'] = new Set([options.ownerGone]);
    owning = ' DELETE entryOwners :gone';
  }
  return updateWrite(keys.albumSummary(albumId), `SET ${sets.join(', ')}${owning}`, { values });
};

/** The owners of an album's entries' assets as its summary item has them, and whether the table's migration learnt them (`learnt`). */
export const entryOwnersOfItem = (item: Record<string, unknown> | undefined): { owners: string[]; learnt: boolean } => {
  const owners = item?.entryOwners;
  return {
    owners: owners instanceof Set ? [...owners].map(String) : Array.isArray(owners) ? owners.map(String) : [],
    learnt: item?.entryOwnersLearnt === true,
  };
};

/** Its entries' marker forgotten (they got change ids it does not know: shared/db/sync.repository.ts, `indexLibrary`); `contentId` moves. */
export const forgetEntriesMarker = (albumId: string): Write =>
  updateWrite(keys.albumSummary(albumId), 'SET contentId = :id REMOVE entriesId', { values: { ':id': newChangeId() } });

/** The markers an album's summary item holds. */
export const markersOf = (item: Record<string, unknown>): AlbumMarkers =>
  Object.fromEntries(
    albumMarkerScopes.flatMap((scope) => {
      const value = item[markerAttribute(scope)];
      return typeof value === 'string' ? [[scope, value]] : [];
    }),
  );
