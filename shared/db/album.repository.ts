import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { statusOf, type AssetRecord, type AssetStatus } from './asset.repository.ts';
import { batchDelete } from './batch.ts';
import { db, tableName } from './client.ts';
import { indexKeys, keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact, type Write } from './transact.ts';
import { chunk, strip } from './items.ts';

/** An album (item type `album`), under its owner. */
export interface AlbumRecord {
  id: string;
  ownerId: string;
  albumName: string;
  description: string;
  albumThumbnailAssetId: string | null;
  createdAt: string;
  updatedAt: string;
  isActivityEnabled: boolean;
  order: 'asc' | 'desc';
  /** ALBUM shared links pointing at it (Immich's `hasSharedLink`). */
  sharedLinkCount: number;
}

/** An asset's entry in an album (item type `albumAsset`), with the asset's status copied. */
export interface AlbumMember extends AssetStatus {
  albumId: string;
  assetId: string;
  addedAt: string;
}

const memberItem = (albumId: string, asset: AssetRecord, addedAt: string) => ({
  ...keys.albumAsset(albumId, asset.id),
  ...indexKeys.assetAlbums(asset.id, albumId),
  type: 'albumAsset',
  albumId,
  assetId: asset.id,
  addedAt,
  ...statusOf(asset),
});

export const getAlbum = async (ownerId: string, albumId: string): Promise<AlbumRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.album(ownerId, albumId), ConsistentRead: true }));
  return Item ? strip<AlbumRecord>(Item) : undefined;
};

export const listAlbums = async (ownerId: string): Promise<AlbumRecord[]> =>
  (await queryPrefix<Record<string, unknown>>(keys.user(ownerId).pk, prefixes.userAlbums)).map((item) => strip<AlbumRecord>(item));

/** Every entry of an album: one Query on the album's partition. */
export const listMembers = async (albumId: string): Promise<AlbumMember[]> =>
  (await queryPrefix<Record<string, unknown>>(`ALBUM#${albumId}`, prefixes.members)).map((item) => strip<AlbumMember>(item));

/** An entry and its asset's album count, written together: the entry must be new. */
const joinWrites = (albumId: string, asset: AssetRecord, addedAt: string): Write[] => [
  { item: { Put: { TableName: tableName, Item: memberItem(albumId, asset, addedAt), ConditionExpression: 'attribute_not_exists(pk)' } } },
  {
    item: {
      Update: { TableName: tableName, Key: keys.asset(asset.id), UpdateExpression: 'ADD albumCount :one', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':one': 1 } },
    },
  },
];

const leaveWrites = (albumId: string, assetId: string): Write[] => [
  { item: { Delete: { TableName: tableName, Key: keys.albumAsset(albumId, assetId), ConditionExpression: 'attribute_exists(pk)' } } },
  {
    item: {
      Update: { TableName: tableName, Key: keys.asset(assetId), UpdateExpression: 'ADD albumCount :minusOne', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':minusOne': -1 } },
    },
  },
];

/**
 * Creates an album with its first assets: the album and up to 49 entries (each with its asset's
 * album count) are one transaction; further entries follow 50 a transaction, and if one fails
 * everything written is undone, so a failed create leaves nothing.
 */
export const createAlbum = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<void> => {
  const albumWrite: Write = {
    item: { Put: { TableName: tableName, Item: { ...keys.album(album.ownerId, album.id), type: 'album', ...album }, ConditionExpression: 'attribute_not_exists(pk)' } },
  };
  const [first = [], ...rest] = [assets.slice(0, 49), ...chunk(assets.slice(49), 50)];
  await transact([albumWrite, ...first.flatMap((asset) => joinWrites(album.id, asset, album.createdAt))]);
  const done: AssetRecord[] = [...first];
  try {
    for (const part of rest) {
      await transact(part.flatMap((asset) => joinWrites(album.id, asset, album.createdAt)));
      done.push(...part);
    }
  } catch (error) {
    for (const part of chunk(done, 50)) await transact(part.flatMap((asset) => leaveWrites(album.id, asset.id)));
    await batchDelete([keys.album(album.ownerId, album.id)]);
    throw error;
  }
};

/** Adds new entries (50 a transaction, each with its asset's album count), then sets the thumbnail and updatedAt. */
export const addMembers = async (album: AlbumRecord, assets: readonly AssetRecord[], thumbnailId: string | null): Promise<void> => {
  const now = new Date().toISOString();
  for (const part of chunk(assets, 50)) await transact(part.flatMap((asset) => joinWrites(album.id, asset, now)));
  await touchAlbum(album, thumbnailId, now);
};

export const removeMembers = async (album: AlbumRecord, assetIds: readonly string[], thumbnailId: string | null): Promise<void> => {
  for (const part of chunk(assetIds, 50)) await transact(part.flatMap((assetId) => leaveWrites(album.id, assetId)));
  await touchAlbum(album, thumbnailId, new Date().toISOString());
};

export const touchAlbum = async (album: AlbumRecord, thumbnailId: string | null, now: string): Promise<void> => {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.album(album.ownerId, album.id),
      UpdateExpression: 'SET albumThumbnailAssetId = :thumbnail, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':thumbnail': thumbnailId, ':now': now },
    }),
  );
};
