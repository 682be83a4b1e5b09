import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from './batch.ts';
import { db, tableName } from './client.ts';
import { indexKeys, keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact, type Write } from './transact.ts';
import { chunk, strip } from './items.ts';

export type SharedLinkType = 'ALBUM' | 'INDIVIDUAL';

/** A shared link (item type `sharedLink`), under its creator. No secret in clear: see `sharedLinkKey`. */
export interface SharedLinkRecord {
  id: string;
  userId: string;
  type: SharedLinkType;
  albumId: string | null;
  description: string | null;
  /** argon2id of the link's password, or null for none. */
  passwordHash: string | null;
  /** SHA-256 of the token a correct password earns (Immich's `sha256(<id>-<password>)`). */
  tokenHash: string | null;
  keyHash: string;
  createdAt: string;
  expiresAt: string | null;
  allowUpload: boolean;
  allowDownload: boolean;
  showExif: boolean;
}

/** What a visitor's key resolves to in one GetItem: the link and its creator. */
export interface SharedLinkKeyRecord {
  linkId: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  expiresAt: string | null;
}

const absent = 'attribute_not_exists(pk)';

// The item's `type` is the entity; the link's own type is stored as `linkType`.
const linkItem = (link: SharedLinkRecord) => ({ ...link, ...keys.sharedLink(link.userId, link.id), type: 'sharedLink', linkType: link.type });

const fromLinkItem = (item: Record<string, unknown>): SharedLinkRecord => {
  const { linkType, ...rest } = strip<Record<string, unknown>>(item);
  return { ...rest, type: linkType } as SharedLinkRecord;
};

/** An ALBUM link counts on its album (Immich's `hasSharedLink`). */
const countOnAlbum = (ownerId: string, albumId: string, delta: 1 | -1): Write => ({
  item: {
    Update: {
      TableName: tableName,
      Key: keys.album(ownerId, albumId),
      UpdateExpression: 'ADD sharedLinkCount :delta',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':delta': delta },
    },
  },
});

/**
 * Creates the link, its key item and its asset entries. The link, key and up to 98 entries are
 * one transaction (with the album's link count); further entries follow, and a failure among
 * them deletes everything again.
 */
export const createSharedLink = async (link: SharedLinkRecord, owner: { email: string; isAdmin: boolean }, assetIds: readonly string[]): Promise<void> => {
  const keyItem: SharedLinkKeyRecord = { linkId: link.id, userId: link.userId, email: owner.email, isAdmin: owner.isAdmin, expiresAt: link.expiresAt };
  const writes: Write[] = [
    { item: { Put: { TableName: tableName, Item: linkItem(link), ConditionExpression: absent } } },
    { item: { Put: { TableName: tableName, Item: { ...keys.sharedLinkKey(link.keyHash), type: 'sharedLinkKey', ...keyItem }, ConditionExpression: absent } } },
  ];
  if (link.albumId) writes.push(countOnAlbum(link.userId, link.albumId, 1));
  const entries = assetIds.map((assetId): Write => ({ item: { Put: { TableName: tableName, Item: assetEntry(link.id, assetId) } } }));
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
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.sharedLink(userId, linkId), ConsistentRead: true }));
  return Item ? fromLinkItem(Item) : undefined;
};

export const getSharedLinkByKeyHash = async (keyHash: string): Promise<SharedLinkKeyRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.sharedLinkKey(keyHash), ConsistentRead: true }));
  return Item ? strip<SharedLinkKeyRecord>(Item) : undefined;
};

export const listSharedLinks = async (userId: string): Promise<SharedLinkRecord[]> =>
  (await queryPrefix<Record<string, unknown>>(keys.user(userId).pk, prefixes.userSharedLinks)).map(fromLinkItem);

/** The asset ids of an INDIVIDUAL link: one Query on the link's partition. */
export const listSharedLinkAssetIds = async (linkId: string): Promise<string[]> =>
  (await queryPrefix<{ assetId: string }>(`SHAREDLINK#${linkId}`, prefixes.members)).map((item) => item.assetId);

/** Replaces the link and keeps its key item's expiry in step, in one transaction. */
export const replaceSharedLink = async (link: SharedLinkRecord): Promise<void> => {
  await transact([
    { item: { Put: { TableName: tableName, Item: linkItem(link), ConditionExpression: 'attribute_exists(pk)' } } },
    {
      item: {
        Update: {
          TableName: tableName,
          Key: keys.sharedLinkKey(link.keyHash),
          UpdateExpression: 'SET expiresAt = :expiresAt',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':expiresAt': link.expiresAt },
        },
      },
    },
  ]);
};

/** Deletes the link and its key (one transaction, so the key stops working at once), then its entries. */
export const deleteSharedLink = async (link: SharedLinkRecord, assetIds: readonly string[]): Promise<void> => {
  const writes: Write[] = [
    { item: { Delete: { TableName: tableName, Key: keys.sharedLink(link.userId, link.id) } } },
    { item: { Delete: { TableName: tableName, Key: keys.sharedLinkKey(link.keyHash) } } },
  ];
  if (link.albumId) writes.push(countOnAlbum(link.userId, link.albumId, -1));
  await transact(writes);
  await batchDelete(assetIds.map((assetId) => keys.sharedLinkAsset(link.id, assetId)));
};

const assetEntry = (linkId: string, assetId: string) => ({ ...keys.sharedLinkAsset(linkId, assetId), ...indexKeys.assetLinks(assetId, linkId), type: 'sharedLinkAsset', linkId, assetId });

/** Adds entries to an INDIVIDUAL link (idempotent puts, 100 a transaction). */
export const addSharedLinkAssets = async (linkId: string, assetIds: readonly string[]): Promise<void> => {
  for (const part of chunk(assetIds, 100)) await transact(part.map((assetId): Write => ({ item: { Put: { TableName: tableName, Item: assetEntry(linkId, assetId) } } })));
};

export const removeSharedLinkAssets = async (linkId: string, assetIds: readonly string[]): Promise<void> => {
  await batchDelete(assetIds.map((assetId) => keys.sharedLinkAsset(linkId, assetId)));
};
