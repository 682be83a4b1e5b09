import { type ApiKeyListing, ApiKeyListingSchema, type ApiKeyRecord, ApiKeyRecordSchema } from '../model/api-key.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as userWrites from './items/user-writes.ts';
import type { Outcome } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, putWrite, setFields, transact, tryTransact, updateWrite } from './transact.ts';

const apiKeyCodec = codec('apiKey', ApiKeyRecordSchema);
const listingCodec = codec('userApiKey', ApiKeyListingSchema);

/**
 * The key under the SHA-256 of its secret (authentication), and a listing under its user (by id);
 * `user-changed` when its user changed since the copy it holds was read.
 */
export const create = (key: ApiKeyRecord): Promise<Outcome<'user-changed'>> => {
  const { id, name, keyHash, createdAt, updatedAt, permissions } = key;
  const listing: ApiKeyListing = { id, name, keyHash, createdAt, updatedAt, permissions };
  return tryTransact([
    userWrites.isCurrent(key.userId, key),
    putWrite({ ...keys.apiKey(key.keyHash), type: 'apiKey', ...key }, { condition: 'absent' }),
    putWrite({ ...keys.userApiKey(key.userId, key.id), type: 'userApiKey', ...listing }, { condition: 'absent' }),
  ]);
};

export const getByHash = async (keyHash: string): Promise<ApiKeyRecord | undefined> => {
  const item = await getItem(keys.apiKey(keyHash));
  return item ? apiKeyCodec.read(item) : undefined;
};

export const listApiKeys = async (userId: string): Promise<ApiKeyListing[]> =>
  (await queryAll(partitions.userApiKeys(userId))).map(listingCodec.read);

export const getUserApiKey = async (userId: string, id: string): Promise<ApiKeyListing | undefined> => {
  const item = await getItem(keys.userApiKey(userId, id));
  return item ? listingCodec.read(item) : undefined;
};

export const remove = async (userId: string, key: ApiKeyListing): Promise<void> => {
  await transact([deleteWrite(keys.apiKey(key.keyHash)), deleteWrite(keys.userApiKey(userId, key.id))]);
};

/**
 * Renames a key or sets its permissions: its listing and the record under its hash, together, while
 * both still exist (`gone` when it was deleted meanwhile).
 */
export const update = (
  userId: string,
  key: ApiKeyListing,
  fields: Pick<ApiKeyListing, 'name' | 'permissions' | 'updatedAt'>,
): Promise<Outcome<'gone'>> => {
  const { expression, names, values } = setFields(fields);
  const options = { condition: 'present', names, values, refusal: 'gone' } as const;
  return tryTransact([
    updateWrite(keys.userApiKey(userId, key.id), expression, options),
    updateWrite(keys.apiKey(key.keyHash), expression, options),
  ]);
};
