import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as env from '../core/env.ts';
import { type StoredConfig, StoredConfigSchema } from '../model/config.ts';
import { db, tableName } from './client.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { doneWith, type Outcome, refused } from './outcome.ts';

const configCodec = codec('config', StoredConfigSchema);

export const getStoredConfig = async (): Promise<StoredConfig> => {
  const item = await getItem(keys.config());
  return item ? configCodec.read(item) : { overrides: {}, version: 0 };
};

// The stored overrides as getStoredSetting last read them, for as long as readConfig keeps the
// settings (shared/services/config.reader.ts); a replacement in this process drops them.
let overridesCache: { overrides: unknown; expires: number } | undefined;

/**
 * One setting as stored (its dot path's override of the defaults: docs/data-model.md, `config`),
 * or undefined when the default holds: for a function that needs no other setting, without the
 * configuration's model. Not for a setting an earlier shape stored under a view's name.
 */
export const getStoredSetting = async (path: string): Promise<unknown> => {
  if (!overridesCache || overridesCache.expires <= Date.now())
    overridesCache = { overrides: (await getItem(keys.config()))?.overrides, expires: Date.now() + env.configCacheMs() };
  const { overrides } = overridesCache;
  return overrides !== null && typeof overrides === 'object' ? (overrides as Record<string, unknown>)[path] : undefined;
};

/**
 * Replaces the overrides if the stored version is still the one they were computed from, so of
 * two concurrent updates one is refused (`changed`: a 409) instead of silently undoing the other.
 */
export const replaceStoredConfig = async (
  overrides: Record<string, unknown>,
  basedOn: number,
): Promise<Outcome<'changed', StoredConfig>> => {
  overridesCache = undefined;
  const version = basedOn + 1;
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.config(), type: 'config', overrides, version, updatedAt: new Date().toISOString() },
        ConditionExpression: basedOn === 0 ? 'attribute_not_exists(pk)' : 'version = :basedOn',
        ...(basedOn === 0 ? {} : { ExpressionAttributeValues: { ':basedOn': basedOn } }),
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('changed');
    throw error;
  }
  return doneWith({ overrides, version });
};
