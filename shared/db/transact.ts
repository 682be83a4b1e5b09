import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stampPut, stampUpdate, syncedEntityOf } from './changes.ts';
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
  /**
   * For an item the sync stream sends (shared/db/changes.ts). An update gets a new change id
   * unless it says `unsent` (it changes nothing the stream sends, e.g. a count). A deletion must
   * say how the stream learns of it: `recorded` (the caller writes its deletion record in the same
   * transaction: shared/db/items/deletion.ts) or `with-parent` (it goes with an item whose deletion
   * is recorded: an asset's faces and album entries, a deleted album's users).
   */
  sync?: 'unsent' | 'recorded' | 'with-parent';
}

/** A deletion of a synced item that does not say how the stream learns of it: a programming error. */
export const assertDeletionSynced = (key: Key, sync: WriteOptions['sync']): void => {
  const entity = syncedEntityOf(key);
  if (entity && sync !== 'recorded' && sync !== 'with-parent')
    throw new Error(`A deletion of a ${entity} must record it for the sync stream (docs/data-model.md, "Change ids and the sync stream")`);
};

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
        Item: stampPut(item),
        ...conditionOf(options),
        ...(options.values ? { ExpressionAttributeValues: options.values } : {}),
      },
    },
    options,
  );

/** Update an item with an expression (`SET …`, `ADD …`). */
export const updateWrite = (key: Key, expression: string, options: WriteOptions = {}): Write => {
  const stamp = options.sync === 'unsent' ? undefined : stampUpdate(key, expression, options.names);
  const values = stamp ? { ...options.values, ...stamp.values } : options.values;
  return withHandler(
    {
      Update: {
        TableName: tableName,
        Key: { ...key },
        UpdateExpression: stamp?.expression ?? expression,
        ...conditionOf(options),
        ...(values ? { ExpressionAttributeValues: values } : {}),
      },
    },
    options,
  );
};

/** Delete an item. */
export const deleteWrite = (key: Key, options: WriteOptions = {}): Write => {
  assertDeletionSynced(key, options.sync);
  return withHandler(
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
};

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

/**
 * `SET #a = :a, #b = :b` for the given fields, with their names and values. A dotted name sets
 * one attribute of a map (`exif.city`: `#exif.#city`), leaving its others as they are. With
 * `remove`, those attributes are removed in the same expression.
 */
export const setFields = (
  fields: Item,
  remove: readonly string[] = [],
): { expression: string; names: Record<string, string>; values: Item } => {
  const entries = Object.entries(fields);
  const path = (name: string) =>
    name
      .split('.')
      .map((part) => `#${part}`)
      .join('.');
  const names = Object.fromEntries(
    [...entries.map(([name]) => name), ...remove].flatMap((name) => name.split('.').map((part) => [`#${part}`, part])),
  );
  const set = entries.length > 0 ? `SET ${entries.map(([name]) => `${path(name)} = :${name.replaceAll('.', '_')}`).join(', ')}` : '';
  return {
    expression: [set, remove.length > 0 ? `REMOVE ${remove.map(path).join(', ')}` : ''].filter(Boolean).join(' '),
    names,
    values: Object.fromEntries(entries.map(([name, value]) => [`:${name.replaceAll('.', '_')}`, value])),
  };
};

/** A transaction was cancelled because of a condition (or a conflict with another transaction). */
export const isCancelled = (error: unknown): error is TransactionCanceledException => error instanceof TransactionCanceledException;

const pause = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.min(500, 20 * 2 ** attempt)));

/** Cancelled only because another transaction held one of the items (or throttling): worth trying again as it is. */
const onlyContended = (error: TransactionCanceledException): boolean => {
  const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError') && !codes.includes('ConditionalCheckFailed');
};

/**
 * Runs the writes as one DynamoDB transaction: all or nothing. When a condition fails, the
 * cancellation reasons say which write it was, and that write's own error is thrown (the first
 * one, in the order given), e.g. 400 `User exists` for the email guard. A transaction that only
 * met another one on a shared item (an owner's usage or timeline counters, which concurrent
 * uploads all update) is tried again after a short pause, a few times.
 */
export const transact = async (writes: readonly Write[]): Promise<void> => {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item) }));
      return;
    } catch (error) {
      if (!isCancelled(error)) throw error;
      if (onlyContended(error) && attempt < 6) {
        await pause(attempt);
        continue;
      }
      const reasons = error.CancellationReasons ?? [];
      const failed = writes.find((write, index) => write.onConditionFailed && reasons[index]?.Code === 'ConditionalCheckFailed');
      if (failed?.onConditionFailed) throw failed.onConditionFailed();
      throw error;
    }
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

/**
 * One write to an item that may have gone meanwhile (its condition, `attribute_exists`, failed):
 * then there is nothing to write, and false is returned.
 */
export const writeIfPresent = async (write: Write): Promise<boolean> => {
  try {
    await writeOne(write);
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/**
 * Writes groups of writes, each group all or nothing, as many groups a transaction as fit (100
 * writes). When a transaction is cancelled, the cancellation reasons say which group's condition
 * failed: that group is left out and reported, and the others are written again (also after a
 * conflict with a concurrent transaction). So every group's outcome is its own and exact: nothing
 * is half-written, and nothing written is reported as failed.
 *
 * Returns, for each group, undefined if it was written, else the index within the group of the
 * write whose condition failed.
 */
export const transactGroups = async (groups: readonly (readonly Write[])[]): Promise<(number | undefined)[]> => {
  const outcome: (number | undefined)[] = groups.map(() => undefined);
  let pending = groups.map((_, index) => index);
  while (pending.length > 0) {
    // The next transaction: as many whole groups as fit.
    const batch: number[] = [];
    let size = 0;
    for (const index of pending) {
      const length = groups[index]?.length ?? 0;
      if (batch.length > 0 && size + length > 100) break;
      batch.push(index);
      size += length;
    }
    pending = pending.slice(batch.length);
    for (let attempt = 0; batch.length > 0; attempt++) {
      try {
        await db.send(
          new TransactWriteCommand({ TransactItems: batch.flatMap((index) => (groups[index] ?? []).map((write) => write.item)) }),
        );
        break;
      } catch (error) {
        if (!isCancelled(error) || attempt >= 8) throw error;
        const reasons = error.CancellationReasons ?? [];
        let offset = 0;
        const failed = new Set<number>();
        for (const index of batch) {
          const group = groups[index] ?? [];
          const at = group.findIndex((_, i) => reasons[offset + i]?.Code === 'ConditionalCheckFailed');
          if (at >= 0) {
            outcome[index] = at;
            failed.add(index);
          }
          offset += group.length;
        }
        // No condition failed: a conflict with another transaction or throttling. Wait, then again.
        if (failed.size === 0) await pause(attempt);
        batch.splice(0, batch.length, ...batch.filter((index) => !failed.has(index)));
      }
    }
  }
  return outcome;
};
