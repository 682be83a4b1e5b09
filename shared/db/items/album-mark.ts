import { newChangeId } from '../changes.ts';
import { keys } from '../keys.ts';
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

/**
 * Moves an album's markers, in a transaction that writes its entries or users (or their
 * deletions): `contentId` always, and each scope's to the latest change id of `writes` there
 * (`fresh`: a new album, whose other scopes have had nothing: `''`). An upsert with no condition,
 * so it never fails a transaction: a write of a deleted album's entries leaves an item no one
 * reads. On its own, without the album model, for the asset functions that move assets out of albums.
 * `ownerId`: the album's owner, kept on the item (the writers that know only the album's id find it there).
 */
export const markAlbum = (
  albumId: string,
  writes: readonly Write<string>[] = [],
  options: { fresh?: boolean; ownerId?: string } = {},
): Write => {
  const changes = changesOf(albumId, writes);
  const scopes = albumMarkerScopes.filter((scope) => options.fresh || changes[scope] !== undefined);
  const values: Record<string, unknown> = { ':id': newChangeId() };
  for (const scope of scopes) values[`:${scope}`] = changes[scope] ?? '';
  const sets = ['contentId = :id', ...scopes.map((scope) => `${markerAttribute(scope)} = :${scope}`)];
  // Whose album it is, for the writers that know only its id (album-sync.repository.ts, `usersOfAlbum`).
  if (options.ownerId !== undefined) {
    values[':ownerId'] = options.ownerId;
    sets.push('ownerId = :ownerId');
  }
  return updateWrite(keys.albumSummary(albumId), `SET ${sets.join(', ')}`, { values });
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
