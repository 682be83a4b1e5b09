import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictException } from '../http/errors.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';

/** The stored configuration: only the values that differ from the defaults, by dot path. */
export interface StoredConfig {
  overrides: Record<string, unknown>;
  /** 0 when nothing was ever stored; each write adds one. */
  version: number;
}

export const getStoredConfig = async (): Promise<StoredConfig> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.config(), ConsistentRead: true }));
  return Item ? { overrides: (Item.overrides ?? {}) as Record<string, unknown>, version: Number(Item.version) } : { overrides: {}, version: 0 };
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
      throw new ConflictException('The configuration was changed by another request; read it again and retry');
    }
    throw error;
  }
  return { overrides, version };
};
