import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';

/** One item by its key, read consistently (the item just written is always seen). */
export const getItem = async (key: Key): Promise<Record<string, unknown> | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item;
};
