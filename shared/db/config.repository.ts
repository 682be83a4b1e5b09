import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../core/errors.ts';
import { type StoredConfig, StoredConfigSchema } from '../model/config.ts';
import { db, tableName } from './client.ts';
import { codec } from './codec.ts';
import { getItem } from './get.ts';
import { keys } from './keys.ts';

const configCodec = codec('config', StoredConfigSchema);

export const getStoredConfig = async (): Promise<StoredConfig> => {
  const item = await getItem(keys.config());
  return item ? configCodec.read(item) : { overrides: {}, version: 0 };
};

/**
 * Replaces the overrides if the stored version is still the one they were computed from, so of
 * two concurrent updates one fails with 409 instead of silently undoing the other.
 */
export const replaceStoredConfig = async (overrides: Record<string, unknown>, basedOn: number): Promise<StoredConfig> => {
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
    if (error instanceof ConditionalCheckFailedException) {
      throw new Conflict('The configuration was changed by another request; read it again and retry');
    }
    throw error;
  }
  return { overrides, version };
};
