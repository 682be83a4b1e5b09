import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { statusOf, type AssetRecord, type AssetStatus } from './asset.repository.ts';
import { batchDelete } from './batch.ts';
import { db, tableName } from './client.ts';
import { indexKeys, keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact, type Write } from './transact.ts';

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

const strip = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest as T;
};

const memberItem = (albumId: string, asset: AssetRecord, addedAt: string) => ({
  ...keys.albumAsset(albumId, asset.id),
  ...indexKeys.assetAlbums(asset.id, albumId),
  type: 'albumAsset',
  albumId,
  assetId: asset.id,
  addedAt,
  ...statusOf(asset),
});

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export const getAlbum = async (ownerId: string, albumId: string): Promise<AlbumRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.album(ownerId, albumId), ConsistentRead: true }));
  return Item ? strip<AlbumRecord>(Item) : undefined;
};

export const listAlbums = async (ownerId: string): Promise<AlbumRecord[]> =>
  (await queryPrefix<Record<string, unknown>>(keys.user(ownerId).pk, prefixes.userAlbums)).map((item) => strip<AlbumRecord>(item));

/** Every entry of an album: one Query on the album's partition. */
export const listMembers = async (albumId: string): Promise<AlbumMember[]> =>
  (await queryPrefix<Record<string, unknown>>(`ALBUM#${albumId}`, prefixes.members)).map((item) => strip<AlbumMember>(item));

/**
 * Creates an album with its first assets. The album and up to 99 entries are one transaction;
 * entries past those follow in further transactions, and if one fails everything written is
 * deleted again, so a failed create leaves nothing.
 */
export const createAlbum = async (album: AlbumRecord, assets: readonly AssetRecord[]): Promise<void> => {
  const albumWrite: Write = {
    item: { Put: { TableName: tableName, Item: { ...keys.album(album.ownerId, album.id), type: 'album', ...album }, ConditionExpression: 'attribute_not_exists(pk)' } },
  };
  const entries = assets.map((asset): Write => ({ item: { Put: { TableName: tableName, Item: memberItem(album.id, asset, album.createdAt) } } }));
  const [first = [], ...rest] = chunks(entries, 99);
  await transact([albumWrite, ...first]);
  try {
    for (const part of rest) await transact(part);
  } catch (error) {
    await batchDelete([keys.album(album.ownerId, album.id), ...assets.map((asset) => keys.albumAsset(album.id, asset.id))]);
    throw error;
  }
};

/** Adds entries (idempotent puts, 100 a transaction) and sets the album's thumbnail and updatedAt. */
export const addMembers = async (album: AlbumRecord, assets: readonly AssetRecord[], thumbnailId: string | null): Promise<void> => {
  const now = new Date().toISOString();
  for (const part of chunks(assets, 100)) {
    await transact(part.map((asset): Write => ({ item: { Put: { TableName: tableName, Item: memberItem(album.id, asset, now) } } })));
  }
  await touchAlbum(album, thumbnailId, now);
};

export const removeMembers = async (album: AlbumRecord, assetIds: readonly string[], thumbnailId: string | null): Promise<void> => {
  await batchDelete(assetIds.map((assetId) => keys.albumAsset(album.id, assetId)));
  await touchAlbum(album, thumbnailId, new Date().toISOString());
};

const touchAlbum = async (album: AlbumRecord, thumbnailId: string | null, now: string): Promise<void> => {
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
