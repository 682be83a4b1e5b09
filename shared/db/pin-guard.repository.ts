import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { done, type Outcome, refused } from './outcome.ts';

/**
 * A user's guard against guessing on the PIN routes (docs/data-model.md, `pinGuard`, pattern 96):
 * one item holding how many proofs in a row were not right (each counted before it is checked),
 * until when the routes are locked, and a `ttl` a day after the last attempt, after which the
 * count starts again. Not an item the sync stream sends.
 */
export interface PinGuard {
  failures: number;
  /** Epoch milliseconds; absent below the limit. */
  lockedUntil?: number | undefined;
  /** Epoch seconds (the table's TTL attribute). */
  ttl: number;
}

/** The guard as stored now (consistent), or undefined for none. */
export const get = async (userId: string): Promise<PinGuard | undefined> => {
  const Item = await getItem(keys.pinGuard(userId));
  if (!Item) return undefined;
  return {
    failures: Number(Item.failures ?? 0),
    lockedUntil: typeof Item.lockedUntil === 'number' ? Item.lockedUntil : undefined,
    ttl: Number(Item.ttl ?? 0),
  };
};

/**
 * Counts one more attempt, on condition the count is still the one read (`seen`: undefined when
 * there was no item), so that of concurrent attempts each is counted once and none is left out:
 * `changed` when another attempt got there first (read again). `lockedUntil` set (null: removed).
 */
export const countPinAttempt = async (
  userId: string,
  seen: PinGuard | undefined,
  next: { failures: number; lockedUntil: number | null; ttl: number },
): Promise<Outcome<'changed'>> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.pinGuard(userId),
        UpdateExpression: `SET #type = :type, failures = :failures, #ttl = :ttl${next.lockedUntil === null ? ' REMOVE lockedUntil' : ', lockedUntil = :until'}`,
        ConditionExpression: seen ? 'failures = :seen' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':type': 'pinGuard',
          ':failures': next.failures,
          ':ttl': next.ttl,
          ...(next.lockedUntil === null ? {} : { ':until': next.lockedUntil }),
          ...(seen ? { ':seen': seen.failures } : {}),
        },
      }),
    );
    return done();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('changed');
    throw error;
  }
};

/** A right proof: the count starts again. */
export const clearPinGuard = async (userId: string): Promise<void> => {
  await db.send(new DeleteCommand({ TableName: tableName, Key: keys.pinGuard(userId) }));
};
