import type { SharedLinkKeyRecord, SharedLinkRecord } from '../model/shared-link.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { getItem } from './get.ts';
import { albumWrites } from './items/album.ts';
import { SharedLinkGoneError, sharedLinkCodec, sharedLinkKeyCodec, sharedLinkWrites } from './items/shared-link.ts';
import { userWrites } from './items/user.ts';
import { keys, partitions } from './keys.ts';
import { queryAll } from './query.ts';
import { checkWrite, deleteWrite, transact, transactGroups, type Write } from './transact.ts';

/**
 * Creates the link, its key item and its asset entries. The link, key and up to 98 entries are
 * one transaction (with the album's link count); further entries follow, and a failure among
 * them deletes everything again.
 */
export const createSharedLink = async (
  link: SharedLinkRecord,
  owner: { email: string; isAdmin: boolean },
  assetIds: readonly string[],
): Promise<void> => {
  const writes: Write[] = [
    userWrites.isCurrent(link.userId, owner),
    sharedLinkWrites.create(link),
    sharedLinkWrites.createKey(link, owner),
  ];
  if (link.albumId) writes.push(albumWrites.addLinkCount(link.userId, link.albumId, 1));
  const entries = assetIds.map((assetId) => sharedLinkWrites.addAsset(link.id, assetId));
  const room = 100 - writes.length;
  await transact([...writes, ...entries.slice(0, room)]);
  try {
    for (const part of chunk(entries.slice(room), 100)) await transact(part);
  } catch (error) {
    await deleteSharedLink(link, assetIds);
    throw error;
  }
};

export const getSharedLink = async (userId: string, linkId: string): Promise<SharedLinkRecord | undefined> => {
  const item = await getItem(keys.sharedLink(userId, linkId));
  return item ? sharedLinkCodec.read(item) : undefined;
};

export const getSharedLinkByKeyHash = async (keyHash: string): Promise<SharedLinkKeyRecord | undefined> => {
  const item = await getItem(keys.sharedLinkKey(keyHash));
  return item ? sharedLinkKeyCodec.read(item) : undefined;
};

export const listSharedLinks = async (userId: string): Promise<SharedLinkRecord[]> =>
  (await queryAll(partitions.userSharedLinks(userId))).map(sharedLinkCodec.read);

/** The asset ids of an INDIVIDUAL link: one Query on the link's partition. */
export const listSharedLinkAssetIds = async (linkId: string): Promise<string[]> =>
  (await queryAll(partitions.sharedLinkAssets(linkId), { attributes: ['assetId'] })).map((item) => String(item.assetId));

/** The ids of the INDIVIDUAL links an asset is in (gsi2). */
export const listLinkIdsOfAsset = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetLinks(assetId), { attributes: ['linkId'] })).map((item) => String(item.linkId));

/** Replaces the link and keeps its key item's expiry and password in step, in one transaction. */
export const replaceSharedLink = async (link: SharedLinkRecord): Promise<void> => {
  await transact([sharedLinkWrites.replace(link), sharedLinkWrites.setKeyState(link)]);
};

/** Deletes the link and its key (one transaction, so the key stops working at once), then its entries. */
export const deleteSharedLink = async (link: SharedLinkRecord, assetIds: readonly string[]): Promise<'deleted' | 'gone'> => {
  const writes: Write[] = [sharedLinkWrites.delete(link), sharedLinkWrites.deleteKey(link)];
  if (link.albumId) writes.push(albumWrites.addLinkCount(link.userId, link.albumId, -1));
  try {
    await transact(writes);
  } catch (error) {
    // Deleted by another request first: its entries are that request's to remove.
    if (error instanceof SharedLinkGoneError) return 'gone';
    throw error;
  }
  await batchDelete(assetIds.map((assetId) => keys.sharedLinkAsset(link.id, assetId)));
  return 'deleted';
};

/** Adds entries to an INDIVIDUAL link (idempotent puts, 100 a transaction). */
/**
 * Adds entries to an INDIVIDUAL link, each only while it is new and its asset exists: per id,
 * `done`, `duplicate` (a concurrent request added it first) or `asset-missing` (deleted meanwhile).
 */
export const addSharedLinkAssets = async (
  linkId: string,
  assetIds: readonly string[],
): Promise<('done' | 'duplicate' | 'asset-missing')[]> =>
  (
    await transactGroups(
      assetIds.map((assetId) => [
        sharedLinkWrites.addNewAsset(linkId, assetId),
        checkWrite(keys.asset(assetId), { condition: 'attribute_exists(pk)' }),
      ]),
    )
  ).map((failedAt) => (failedAt === undefined ? 'done' : failedAt === 0 ? 'duplicate' : 'asset-missing'));

/** Removes entries of an INDIVIDUAL link: per id, true when this request removed it. */
export const removeSharedLinkAssets = async (linkId: string, assetIds: readonly string[]): Promise<boolean[]> =>
  (await transactGroups(assetIds.map((assetId) => [deleteWrite(keys.sharedLinkAsset(linkId, assetId), { condition: 'present' })]))).map(
    (failedAt) => failedAt === undefined,
  );

/** Whether a visitor of the link may see the asset: it is one of the link's assets, or in the link's album (one GetItem). */
export const linkShowsAsset = async (link: Pick<SharedLinkRecord, 'id' | 'type' | 'albumId'>, assetId: string): Promise<boolean> => {
  const key = link.type === 'ALBUM' && link.albumId ? keys.albumAsset(link.albumId, assetId) : keys.sharedLinkAsset(link.id, assetId);
  return (await getItem(key)) !== undefined;
};

/** Which of these assets a visitor of the link may see (BatchGetItem of their entries in the link or its album). */
export const assetsLinkShows = async (
  link: Pick<SharedLinkRecord, 'id' | 'type' | 'albumId'>,
  assetIds: readonly string[],
): Promise<Set<string>> => {
  const keyOf = (assetId: string) =>
    link.type === 'ALBUM' && link.albumId ? keys.albumAsset(link.albumId, assetId) : keys.sharedLinkAsset(link.id, assetId);
  return new Set((await batchGet([...new Set(assetIds)].map(keyOf))).map((item) => String(item.sk).slice('ASSET#'.length)));
};
