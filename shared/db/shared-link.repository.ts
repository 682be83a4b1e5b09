import type { SharedLinkKeyRecord, SharedLinkRecord, SharedLinkSlugRecord } from '../model/shared-link.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as albumWrites from './items/album-writes.ts';
import { sharedLinkCodec, sharedLinkKeyCodec, sharedLinkSlugCodec } from './items/shared-link.ts';
import * as sharedLinkWrites from './items/shared-link-writes.ts';
import * as userWrites from './items/user-writes.ts';
import { done, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { checkWrite, deleteWrite, transact, transactGroups, tryTransact, type Write } from './transact.ts';

/**
 * Creates the link, its key item, its slug item (when it has a slug: `taken` when another link has
 * it, and nothing is written; `user-changed` when its creator changed since read) and its asset entries. The link, key, slug and up to 97 entries are
 * one transaction (with the album's link count); further entries follow, and a failure among them
 * deletes everything again.
 */
export const create = async (
  link: SharedLinkRecord,
  owner: { email: string; isAdmin: boolean },
  assetIds: readonly string[],
): Promise<Outcome<'taken' | 'user-changed'>> => {
  const writes: Write<'taken' | 'user-changed'>[] = [
    userWrites.isCurrent(link.userId, owner),
    sharedLinkWrites.create(link),
    sharedLinkWrites.createKey(link, owner),
  ];
  if (link.slug !== null) writes.push(sharedLinkWrites.createSlug({ ...link, slug: link.slug }));
  if (link.albumId) writes.push(albumWrites.addLinkCount(link.userId, link.albumId, 1));
  const entries = assetIds.map((assetId) => sharedLinkWrites.addAsset(link.id, assetId));
  const room = 100 - writes.length;
  const created = await tryTransact([...writes, ...entries.slice(0, room)]);
  if (!created.ok) return created;
  try {
    for (const part of chunk(entries.slice(room), 100)) await transact(part);
  } catch (error) {
    await remove(link, assetIds);
    throw error;
  }
  return done();
};

export const get = async (userId: string, linkId: string): Promise<SharedLinkRecord | undefined> => {
  const item = await getItem(keys.sharedLink(userId, linkId));
  return item ? sharedLinkCodec.read(item) : undefined;
};

export const getByKeyHash = async (keyHash: string): Promise<SharedLinkKeyRecord | undefined> => {
  const item = await getItem(keys.sharedLinkKey(keyHash));
  return item ? sharedLinkKeyCodec.read(item) : undefined;
};

/** The link a slug names (one GetItem), or undefined when no link has it. */
export const getBySlug = async (slug: string): Promise<SharedLinkSlugRecord | undefined> => {
  const item = await getItem(keys.sharedLinkSlug(slug));
  return item ? sharedLinkSlugCodec.read(item) : undefined;
};

export const list = async (userId: string): Promise<SharedLinkRecord[]> =>
  (await queryAll(partitions.userSharedLinks(userId))).map(sharedLinkCodec.read);

/** The asset ids of an INDIVIDUAL link: one Query on the link's partition. */
export const listAssetIds = async (linkId: string): Promise<string[]> =>
  (await queryAll(partitions.sharedLinkAssets(linkId), { attributes: ['assetId'] })).map((item) => String(item.assetId));

/** The ids of the INDIVIDUAL links an asset is in (gsi2). */
export const listLinkIdsOfAsset = async (assetId: string): Promise<string[]> =>
  (await queryAll(partitions.assetLinks(assetId), { attributes: ['linkId'] })).map((item) => String(item.linkId));

/**
 * Replaces the link as it was read (`before`), in one transaction: its key item's expiry and
 * password kept in step, and when the slug changes, the old slug freed and the new one taken.
 * `changed` when the link is gone or its slug changed since it was read, `taken` when another link
 * has the new slug: then nothing is written.
 */
export const replaceSharedLink = (link: SharedLinkRecord, before: SharedLinkRecord): Promise<Outcome<'changed' | 'taken'>> => {
  const writes: Write<'changed' | 'taken'>[] = [sharedLinkWrites.replace(link, before.slug), sharedLinkWrites.setKeyState(link)];
  if (link.slug !== before.slug) {
    if (before.slug !== null) writes.push(sharedLinkWrites.deleteSlug(before.slug, link.id));
    if (link.slug !== null) writes.push(sharedLinkWrites.createSlug({ ...link, slug: link.slug }));
  }
  return tryTransact(writes);
};

/**
 * Deletes the link, its key and its slug (one transaction, so neither works a moment longer and
 * the slug is free at once), then its entries. A link whose slug changed since it was read is
 * read again and deleted as it is now; `gone` when another request deleted it first.
 */
export const remove = async (link: SharedLinkRecord, assetIds: readonly string[]): Promise<Outcome<'gone'>> => {
  for (let current: SharedLinkRecord | undefined = link; ; ) {
    const writes: Write<'changed'>[] = [sharedLinkWrites.delete(current), sharedLinkWrites.deleteKey(current)];
    if (current.slug !== null) writes.push(sharedLinkWrites.deleteSlug(current.slug, current.id));
    if (current.albumId) writes.push(albumWrites.addLinkCount(current.userId, current.albumId, -1));
    if ((await tryTransact(writes)).ok) break;
    current = await get(link.userId, link.id);
    // Deleted by another request first: its entries are that request's to remove.
    if (!current) return refused('gone');
  }
  await batchDelete(assetIds.map((assetId) => keys.sharedLinkAsset(link.id, assetId)));
  return done();
};

/**
 * Adds entries to an INDIVIDUAL link, each only while it is new and its asset exists: per id,
 * done, or refused `duplicate` (a concurrent request added it first) or `asset-missing` (deleted meanwhile).
 */
export const addAssets = async (linkId: string, assetIds: readonly string[]): Promise<Outcome<'duplicate' | 'asset-missing'>[]> =>
  (
    await transactGroups(
      assetIds.map((assetId) => [
        sharedLinkWrites.addNewAsset(linkId, assetId),
        checkWrite(keys.asset(assetId), { condition: 'attribute_exists(pk)' }),
      ]),
    )
  ).map((failedAt) => (failedAt === undefined ? done() : refused(failedAt === 0 ? 'duplicate' : 'asset-missing')));

/** Removes entries of an INDIVIDUAL link: per id, done when this request removed it, else `gone`. */
export const removeAssets = async (linkId: string, assetIds: readonly string[]): Promise<Outcome<'gone'>[]> =>
  (await transactGroups(assetIds.map((assetId) => [deleteWrite(keys.sharedLinkAsset(linkId, assetId), { condition: 'present' })]))).map(
    (failedAt) => (failedAt === undefined ? done() : refused('gone')),
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
