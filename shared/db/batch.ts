import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { Key } from './keys.ts';
import { chunk } from './items.ts';

const backoff = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** attempt)));

const maxAttempts = 8;

/** Deletes the keys in chunks of 25 (BatchWriteItem's limit), retrying whatever DynamoDB leaves unprocessed. */
export const batchDelete = async (keys: readonly Key[]): Promise<void> => {
  for (const part of chunk(keys, 25)) {
    let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] = part.map((key) => ({ DeleteRequest: { Key: { ...key } } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= maxAttempts) throw new Error(`BatchWriteItem left ${requests.length} deletes unprocessed`);
      if (attempt > 0) await backoff(attempt);
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
};

/**
 * Reads the keys in chunks of 100 (BatchGetItem's limit), retrying unprocessed keys, and returns
 * the items found in the order of `keys` (missing ones left out).
 */
export const batchGet = async <T extends Record<string, unknown>>(keys: readonly Key[]): Promise<T[]> => {
  const found = new Map<string, T>();
  const id = (key: { pk?: unknown; sk?: unknown }): string => `${String(key.pk)}\u0000${String(key.sk)}`;
  // The chunks are read concurrently: 1,000 keys cost one round trip of latency, not ten.
  await Promise.all(
    chunk(keys, 100).map(async (part) => {
      let pending: Record<string, unknown>[] = part.map((key) => ({ ...key }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= maxAttempts) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
        if (attempt > 0) await backoff(attempt);
        const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
        for (const item of result.Responses?.[tableName] ?? []) found.set(id(item), item as T);
        pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
      }
    }),
  );
  return keys.flatMap((key) => {
    const item = found.get(id(key));
    return item ? [item] : [];
  });
};
