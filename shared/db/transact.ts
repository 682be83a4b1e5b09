import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

/** One write of a transaction, and the error to throw if its condition is what cancelled it. */
export interface Write {
  item: TransactItem;
  onConditionFailed?: () => Error;
}

export interface WriteOptions {
  /** A condition expression; `absent` and `present` name the two common ones. */
  condition?: 'absent' | 'present' | string;
  values?: Item;
  names?: Record<string, string>;
  onConditionFailed?: () => Error;
}

const conditionOf = (options: WriteOptions) => {
  const expression =
    options.condition === 'absent'
      ? 'attribute_not_exists(pk)'
      : options.condition === 'present'
        ? 'attribute_exists(pk)'
        : options.condition;
  return {
    ...(expression ? { ConditionExpression: expression } : {}),
    ...(options.names ? { ExpressionAttributeNames: options.names } : {}),
  };
};

const withHandler = (item: TransactItem, options: WriteOptions): Write =>
  options.onConditionFailed ? { item, onConditionFailed: options.onConditionFailed } : { item };

/** Put an item (the write builders of each entity use these three). */
export const putWrite = (item: Item, options: WriteOptions = {}): Write =>
  withHandler(
    {
      Put: {
        TableName: tableName,
        Item: item,
        ...conditionOf(options),
        ...(options.values ? { ExpressionAttributeValues: options.values } : {}),
      },
    },
    options,
  );

/** Update an item with an expression (`SET …`, `ADD …`). */
export const updateWrite = (key: Key, expression: string, options: WriteOptions = {}): Write =>
  withHandler(
    {
      Update: {
        TableName: tableName,
        Key: { ...key },
        UpdateExpression: expression,
        ...conditionOf(options),
        ...(options.values ? { ExpressionAttributeValues: options.values } : {}),
      },
    },
    options,
  );

/** Delete an item. */
export const deleteWrite = (key: Key, options: WriteOptions = {}): Write =>
  withHandler(
    {
      Delete: {
        TableName: tableName,
        Key: { ...key },
        ...conditionOf(options),
        ...(options.values ? { ExpressionAttributeValues: options.values } : {}),
      },
    },
    options,
  );

/** Check a condition on an item without writing it. */
export const checkWrite = (key: Key, options: WriteOptions & { condition: string }): Write =>
  withHandler(
    {
      ConditionCheck: {
        TableName: tableName,
        Key: { ...key },
        ConditionExpression: options.condition,
        ...(options.names ? { ExpressionAttributeNames: options.names } : {}),
        ...(options.values ? { ExpressionAttributeValues: options.values } : {}),
      },
    },
    options,
  );

/** `SET #a = :a, #b = :b` for the given fields, with their names and values. */
export const setFields = (fields: Item): { expression: string; names: Record<string, string>; values: Item } => {
  const entries = Object.entries(fields);
  return {
    expression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
    values: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
  };
};

/** A transaction was cancelled because of a condition (or a conflict with another transaction). */
export const isCancelled = (error: unknown): error is TransactionCanceledException => error instanceof TransactionCanceledException;

/**
 * Runs the writes as one DynamoDB transaction: all or nothing. When a condition fails, the
 * cancellation reasons say which write it was, and that write's own error is thrown (the first
 * one, in the order given), e.g. 400 `User exists` for the email guard.
 */
export const transact = async (writes: readonly Write[]): Promise<void> => {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item) }));
  } catch (error) {
    if (!isCancelled(error)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const failed = writes.find((write, index) => write.onConditionFailed && reasons[index]?.Code === 'ConditionalCheckFailed');
    if (failed?.onConditionFailed) throw failed.onConditionFailed();
    throw error;
  }
};

/** One write on its own (PutItem, UpdateItem or DeleteItem): cheaper than a transaction of one. */
export const writeOne = async (write: Write): Promise<void> => {
  const { Put, Update, Delete } = write.item;
  try {
    if (Put) await db.send(new PutCommand(Put));
    else if (Update) await db.send(new UpdateCommand(Update));
    else if (Delete) await db.send(new DeleteCommand(Delete));
    else await transact([write]);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException && write.onConditionFailed) throw write.onConditionFailed();
    throw error;
  }
};
