import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stampPut, stampUpdate, syncedEntityOf } from './changes.ts';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';
import { done, type Outcome, refused } from './outcome.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Item = Record<string, unknown>;

/**
 * One write of a transaction, and what its condition failing means: an expected outcome (`refusal`,
 * docs/architecture.md, "Expected outcomes"), which only tryTransact and tryWriteOne take and
 * answer with. A write without one whose condition fails is unexpected.
 */
export interface Write<Reason extends string = never> {
  item: TransactItem;
  refusal?: Reason;
}

export interface WriteOptions<Reason extends string = never> {
  /** A condition expression; `absent` and `present` name the two common ones. */
  condition?: 'absent' | 'present' | string;
  values?: Item;
  names?: Record<string, string>;
  /** The expected outcome this write's condition failing stands for. */
  refusal?: Reason;
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
export const assertDeletionSynced = (key: Key, sync: WriteOptions<string>['sync']): void => {
  const entity = syncedEntityOf(key);
  if (entity && sync !== 'recorded' && sync !== 'with-parent')
    throw new Error(`A deletion of a ${entity} must record it for the sync stream (docs/data-model.md, "Change ids and the sync stream")`);
};

const conditionOf = (options: WriteOptions<string>) => {
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

const withHandler = <Reason extends string>(item: TransactItem, options: WriteOptions<Reason>): Write<Reason> =>
  options.refusal === undefined ? { item } : { item, refusal: options.refusal };

/** A write whose condition failing is unexpected where it is used (e.g. a new item's): its refusal dropped. */
export const unexpected = <Reason extends string>(write: Write<Reason>): Write => {
  const { refusal: _, ...rest } = write;
  return rest;
};

/** Put an item (the write builders of each entity use these three). */
export const putWrite = <const Reason extends string = never>(item: Item, options: WriteOptions<Reason> = {}): Write<Reason> =>
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
export const updateWrite = <const Reason extends string = never>(
  key: Key,
  expression: string,
  options: WriteOptions<Reason> = {},
): Write<Reason> => {
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
export const deleteWrite = <const Reason extends string = never>(key: Key, options: WriteOptions<Reason> = {}): Write<Reason> => {
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
export const checkWrite = <const Reason extends string = never>(
  key: Key,
  options: WriteOptions<Reason> & { condition: string },
): Write<Reason> =>
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

/** A cancellation's reasons, for the writes it cancelled. */
const cancellationCodes = (error: TransactionCanceledException): string[] =>
  (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');

/** Sends one transaction, tried again after a short pause, a few times, while it only met others. */
const send = async (writes: readonly Write<string>[]): Promise<void> => {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item) }));
      return;
    } catch (error) {
      if (isCancelled(error) && onlyContended(error) && attempt < 6) {
        await pause(attempt);
        continue;
      }
      throw error;
    }
  }
};

/** The write whose condition cancelled the transaction (the first one, in the order given) and that says what that means. */
const failedWrite = <Reason extends string>(writes: readonly Write<Reason>[], error: TransactionCanceledException) => {
  const codes = cancellationCodes(error);
  return writes.find((write, index) => write.refusal !== undefined && codes[index] === 'ConditionalCheckFailed');
};

/**
 * Runs the writes as one DynamoDB transaction: all or nothing; a condition failing is unexpected
 * here, and thrown (the cancellation). A transaction that only met another one on a shared item
 * (an owner's usage or timeline counters, which concurrent uploads all update) is tried again after
 * a short pause, a few times. Writes that stand for an expected outcome (`refusal`) go through
 * tryTransact instead (the types say so).
 */
export const transact = (writes: readonly Write[]): Promise<void> => send(writes);

/**
 * Runs the writes as one transaction, as transact does, and answers with the expected outcome:
 * done, or refused for the `refusal` of the first write whose condition cancelled it. A condition
 * failing on a write that names no refusal is unexpected, and thrown.
 */
export const tryTransact = async <Reason extends string>(writes: readonly Write<Reason>[]): Promise<Outcome<Reason>> => {
  try {
    await send(writes);
    return done();
  } catch (error) {
    if (!isCancelled(error)) throw error;
    const failed = failedWrite(writes, error);
    if (failed?.refusal !== undefined) return refused(failed.refusal);
    throw error;
  }
};

/** One write on its own (PutItem, UpdateItem or DeleteItem): cheaper than a transaction of one. */
export const writeOne = async (write: Write): Promise<void> => {
  await tryWriteOne(write);
};

/** One write on its own, answering with its expected outcome (its `refusal` when its condition failed). */
export const tryWriteOne = async <Reason extends string>(write: Write<Reason>): Promise<Outcome<Reason>> => {
  const { Put, Update, Delete } = write.item;
  try {
    if (Put) await db.send(new PutCommand(Put));
    else if (Update) await db.send(new UpdateCommand(Update));
    else if (Delete) await db.send(new DeleteCommand(Delete));
    else return await tryTransact([write]);
    return done();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException && write.refusal !== undefined) return refused(write.refusal);
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
 * write whose condition failed. `each` (a write with no condition, e.g. an album's change markers)
 * is made for each transaction sent, from its other writes, and goes last in it.
 */
export const transactGroups = async (
  groups: readonly (readonly Write[])[],
  options: { each?: (writes: readonly Write[]) => Write } = {},
): Promise<(number | undefined)[]> => {
  const outcome: (number | undefined)[] = groups.map(() => undefined);
  let pending = groups.map((_, index) => index);
  while (pending.length > 0) {
    // The next transaction: as many whole groups as fit.
    const batch: number[] = [];
    let size = 0;
    for (const index of pending) {
      const length = groups[index]?.length ?? 0;
      if (batch.length > 0 && size + length > (options.each ? 99 : 100)) break;
      batch.push(index);
      size += length;
    }
    pending = pending.slice(batch.length);
    for (let attempt = 0; batch.length > 0; attempt++) {
      try {
        const writes = batch.flatMap((index) => groups[index] ?? []);
        await db.send(
          new TransactWriteCommand({
            TransactItems: [...writes.map((write) => write.item), ...(options.each ? [options.each(writes).item] : [])],
          }),
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
