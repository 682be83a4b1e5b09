import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';
import { done, type Outcome, refused } from './outcome.ts';

/**
 * One UpdateItem of an item the sync stream never sends (no change id is stamped), if its
 * condition holds: refused `changed` when it does not. Apart from transact.ts so that every function may carry
 * it (authenticating a session keeps the session item: shared/db/session.repository.ts) without the
 * transaction and change-id code the read-only functions have no other use for (docs/benchmarks.md).
 */
export const updateIf = async (
  key: Key,
  update: { expression: string; condition: string; values: Record<string, unknown>; names?: Record<string, string> },
): Promise<Outcome<'changed'>> => {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { ...key },
        UpdateExpression: update.expression,
        ConditionExpression: update.condition,
        ExpressionAttributeValues: update.values,
        ...(update.names ? { ExpressionAttributeNames: update.names } : {}),
      }),
    );
    return done();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refused('changed');
    throw error;
  }
};
