import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { inBatches } from '../core/concurrency.ts';
import { stampPut } from './changes.ts';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';
import { assertDeletionSynced } from './transact.ts';

/** `items` in runs of `size` (DynamoDB's per-call limits: 25 writes, 100 reads or transaction items). */
export const chunk = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const backoff = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** attempt)));

const maxAttempts = 8;

/** Most BatchGetItem calls one request has in flight. */
const maxInFlight = 8;

/** Sends the requests in chunks of 25 (BatchWriteItem's limit), retrying whatever DynamoDB leaves unprocessed. */
const batchWrite = async (all: readonly WriteRequest[]): Promise<void> => {
  for (const part of chunk(all, 25)) {
    let requests: WriteRequest[] = part;
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= maxAttempts) throw new Error(`BatchWriteItem left ${requests.length} writes unprocessed`);
      if (attempt > 0) await backoff(attempt);
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
};

/**
 * Deletes the keys (idempotent), 25 a call. Keys of items the sync stream sends need `sync`, as a
 * deleteWrite's (shared/db/transact.ts): how the stream learns of their deletion.
 */
export const batchDelete = (keys: readonly Key[], sync?: 'recorded' | 'with-parent'): Promise<void> => {
  for (const key of keys) assertDeletionSynced(key, sync);
  return batchWrite(keys.map((key) => ({ DeleteRequest: { Key: { ...key } } })));
};

/** Puts the items (unconditional, so idempotent), 25 a call; a synced item gets its change id as a putWrite's. */
export const batchPut = (items: readonly Record<string, unknown>[]): Promise<void> =>
  batchWrite(items.map((item) => ({ PutRequest: { Item: stampPut(item) } })));

/**
 * Reads the keys in chunks of 100 (BatchGetItem's limit), retrying unprocessed keys, and returns
 * the items found in the order of `keys` (missing ones left out; a key given twice gets its item
 * twice); `consistent`: as they are now (strongly consistent reads, twice the cost), for a
 * decision a transaction then conditions on.
 */
export const batchGet = async (keys: readonly Key[], options: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> => {
  const found = new Map<string, Record<string, unknown>>();
  const id = (key: { pk?: unknown; sk?: unknown }): string => `${String(key.pk)}\u0000${String(key.sk)}`;
  // Each key is asked for once: BatchGetItem rejects a whole call whose keys repeat ("Provided list
  // of item keys contains duplicates"), and one photo in two albums puts its key in a list twice.
  const unique = [...new Map(keys.map((key) => [id(key), key])).values()];
  // The chunks are read concurrently, at most `maxInFlight` at a time: 1,000 keys cost two round
  // trips of latency, not ten, and 100,000 keys never put 1,000 calls in flight at once.
  await inBatches(chunk(unique, 100), maxInFlight, async (part) => {
    let pending: Record<string, unknown>[] = part.map((key) => ({ ...key }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= maxAttempts) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (attempt > 0) await backoff(attempt);
      const result = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(id(item), item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  });
  return keys.flatMap((key) => {
    const item = found.get(id(key));
    return item ? [item] : [];
  });
};
