/**
 * The owners of an album's entries' assets, on its summary item (shared/db/items/album-mark.ts):
 * every entry written since they are kept adds its asset's owner (`entryOwners`); an album from
 * before learns them once, here, off the request path (shared/services/sync/entry-owners.ts;
 * docs/data-model.md, "Album summaries").
 */
import * as albumSyncRepo from './album-sync.repository.ts';
import { batchGet } from './batch.ts';
import * as keys from './item-keys.ts';
import { entryOwnersOfItem, markAlbum } from './items/album-mark.ts';
import { assetIdOfPk } from './keys.ts';
import * as migrationsRepo from './migrations.repository.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { checkWrite, isCancelled, transact, transactGroups, tryWriteOne, updateWrite } from './transact.ts';

/** Whether the table's entry owners are learnt (the migrations item's `entryOwners`: docs/data-model.md, "Earlier shapes"). */
export const entryOwnersLearnt = (): Promise<boolean> => migrationsRepo.migrationDone('entryOwners');

/** Marks them learnt, at `at`. */
export const markEntryOwnersLearnt = (at: string): Promise<void> => migrationsRepo.markMigrationDone('entryOwners', at);

/** Every user's id (Query gsi1 `USERS`). */
export const userIds = async (): Promise<string[]> =>
  (await queryAll(partitions.users(), { attributes: ['id'] })).map((item) => String(item.id));

/** A user's own albums whose entries' owners the table's migration has not learnt yet (their summary item's `entryOwnersLearnt`). */
export const albumsToLearn = async (ownerId: string): Promise<string[]> => {
  const albums = (await queryAll(partitions.userAlbums(ownerId), { attributes: ['id', 'albumId'] })).map((album) =>
    String(album.albumId ?? album.id),
  );
  const learnt = new Set(
    (await batchGet(albums.map((albumId) => keys.albumSummary(albumId))))
      .filter((item) => entryOwnersOfItem(item).learnt)
      .map((item) => String(item.pk).slice('ALBUM#'.length)),
  );
  return albums.filter((albumId) => !learnt.has(albumId));
};

/** A write of the album's summary item, only while the album exists (a deleted album's is not made again). */
const whileAlbum = async (ownerId: string, albumId: string, expression: string, values: Record<string, unknown>): Promise<boolean> => {
  try {
    await transact([
      checkWrite(keys.album(ownerId, albumId), { condition: 'attribute_exists(pk)' }),
      updateWrite(keys.albumSummary(albumId), expression, { values }),
    ]);
    return true;
  } catch (error) {
    if (isCancelled(error)) return false;
    throw error;
  }
};

/**
 * Learns an album's entries' owners: its entries (Query `ALBUM#<id>` ASSET#), each naming its
 * asset's owner or, written before they did, its asset read (BatchGetItem; an asset gone meanwhile
 * has none). The owners are added to those the album's writes since gathered (a set only added to:
 * an add meanwhile keeps its own); then its users are read as they are now, and when an owner is
 * not one of them (a partner's photo an editor added, a departed member's), that owner's entries
 * are written again (`assetOwnerId`, which gives them new change ids), after the users' album sync
 * markers moved as a share moves them: their apps get those assets again as they are now (their
 * changes until now were not sent), and their next sync learns who their albums' other users are.
 * Reading the users after the owners are written, a user who joins or leaves meanwhile is either
 * read or moves the markers itself. Last, the album is marked learnt (an interrupted learning is
 * done again). Nothing is written for an album deleted meanwhile.
 */
export const learnAlbum = async (ownerId: string, albumId: string): Promise<string[]> => {
  const entries = await queryAll(partitions.albumAssets(albumId), { attributes: ['assetId', 'assetOwnerId'] });
  const ownerOf = new Map<string, string>();
  for (const entry of entries) if (typeof entry.assetOwnerId === 'string') ownerOf.set(String(entry.assetId), entry.assetOwnerId);
  const unnamed = entries.filter((entry) => typeof entry.assetOwnerId !== 'string').map((entry) => keys.asset(String(entry.assetId)));
  for (const asset of await batchGet(unnamed)) if (typeof asset.ownerId === 'string') ownerOf.set(assetIdOfPk(asset.pk), asset.ownerId);
  const owners = new Set(ownerOf.values());
  if (owners.size > 0 && !(await whileAlbum(ownerId, albumId, 'ADD entryOwners :owners', { ':owners': owners }))) return [];
  const users = await albumSyncRepo.usersOfAlbum(albumId, ownerId);
  const foreign = [...ownerOf].filter(([, owner]) => !users.includes(owner));
  if (foreign.length > 0) {
    const groups = foreign.map(([assetId, owner]) => [
      updateWrite(keys.albumAsset(albumId, assetId), 'SET assetOwnerId = :owner', { condition: 'present', values: { ':owner': owner } }),
    ]);
    await albumSyncRepo.moveMarkers(users, { shared: true });
    // An entry removed meanwhile fails its own group only.
    await transactGroups(groups, { each: (writes) => markAlbum(albumId, writes) });
  }
  await whileAlbum(ownerId, albumId, 'SET entryOwnersLearnt = :true', { ':true': true });
  return [...owners];
};

/** Users purged for good taken out of albums' entries' owners (UpdateItem `DELETE entryOwners` each, only while the summary item exists). */
export const forgetOwners = async (albumIds: readonly string[], userIds: readonly string[]): Promise<void> => {
  await Promise.all(
    albumIds.map((albumId) =>
      tryWriteOne(
        updateWrite(keys.albumSummary(albumId), 'DELETE entryOwners :gone', {
          condition: 'attribute_exists(pk)',
          values: { ':gone': new Set(userIds) },
          refusal: 'gone',
        }),
      ),
    ),
  );
};
