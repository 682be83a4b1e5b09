import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, and the error to throw if its condition is what cancelled it. */
export interface Write {
  item: TransactItem;
  onConditionFailed?: () => Error;
}

/**
 * Runs the writes as one DynamoDB transaction: all or nothing. When a condition fails, the
 * cancellation reasons say which write it was, and that write's own error is thrown (the first
 * one, in the order given), e.g. 400 `User exists` for the email guard.
 */
export const transact = async (writes: readonly Write[]): Promise<void> => {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item) }));
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = writes.find((write, index) => write.onConditionFailed && reasons[index]?.Code === 'ConditionalCheckFailed');
    if (failed?.onConditionFailed) throw failed.onConditionFailed();
    throw error;
  }
};
