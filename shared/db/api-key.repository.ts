import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact } from './transact.ts';

/**
 * An API key, stored under the SHA-256 of its secret, carrying the user's id, email and role so
 * that authenticating a request is one GetItem. A second item lists it under its user by id.
 */
export interface ApiKeyRecord {
  id: string;
  name: string;
  keyHash: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  createdAt: string;
  updatedAt: string;
}

export type ApiKeyListing = Pick<ApiKeyRecord, 'id' | 'name' | 'keyHash' | 'createdAt' | 'updatedAt'>;

export const createApiKey = async (key: ApiKeyRecord): Promise<void> => {
  const absent = 'attribute_not_exists(pk)';
  const listing: ApiKeyListing = { id: key.id, name: key.name, keyHash: key.keyHash, createdAt: key.createdAt, updatedAt: key.updatedAt };
  await transact([
    { item: { Put: { TableName: tableName, Item: { ...keys.apiKey(key.keyHash), type: 'apiKey', ...key }, ConditionExpression: absent } } },
    { item: { Put: { TableName: tableName, Item: { ...keys.userApiKey(key.userId, key.id), type: 'userApiKey', ...listing }, ConditionExpression: absent } } },
  ]);
};

export const getApiKeyByHash = async (keyHash: string): Promise<ApiKeyRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(keyHash), ConsistentRead: true }));
  return Item as ApiKeyRecord | undefined;
};

export const listApiKeys = (userId: string): Promise<ApiKeyListing[]> => queryPrefix<ApiKeyListing>(keys.user(userId).pk, prefixes.userApiKeys);

export const getUserApiKey = async (userId: string, id: string): Promise<ApiKeyListing | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.userApiKey(userId, id), ConsistentRead: true }));
  return Item as ApiKeyListing | undefined;
};

export const deleteApiKey = async (userId: string, key: ApiKeyListing): Promise<void> => {
  await transact([
    { item: { Delete: { TableName: tableName, Key: keys.apiKey(key.keyHash) } } },
    { item: { Delete: { TableName: tableName, Key: keys.userApiKey(userId, key.id) } } },
  ]);
};
