import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { median, percentile } from './stats.ts';

/**
 * What a bench reads from DynamoDB, counted on the functions' shared client: items (Query
 * ScannedCount, BatchGetItem and GetItem items) and read capacity (ReturnConsumedCapacity); the
 * write capacity of the writes apart (`writes`). DynamoDB Local reports a write's units on the
 * table alone: with `indexes` (shared/db/table.ts's), each item a write puts also counts a write
 * of every index whose key it carries, as AWS bills it (its size in KB, rounded up, where the
 * index projects every attribute; 1 where it projects a few); the index writes of updates and
 * deletes are not visible here (undercounted, as in test/bench/cost.ts). The caller zeroes it
 * before each request.
 */
/**
 * Adds one DynamoDB answer to a meter: the items it read (a query's scanned items, a batch's
 * responses, a GetItem's item) and the capacity it consumed, as reads or writes.
 */
export const countOutput = (
  output: Record<string, unknown>,
  write: boolean,
  meter: { items: number; capacity: number; writes: number },
) => {
  if (typeof output.ScannedCount === 'number') meter.items += output.ScannedCount;
  else if (output.Responses && typeof output.Responses === 'object' && !Array.isArray(output.Responses))
    meter.items += Object.values(output.Responses as Record<string, unknown[]>).reduce((n, list) => n + list.length, 0);
  else if ('Item' in output) meter.items += output.Item ? 1 : 0;
  for (const used of [output.ConsumedCapacity].flat()) {
    const units = Number((used as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0);
    if (write) meter.writes += units;
    else meter.capacity += units;
  }
};

export const meterReads = (
  db: DynamoDBDocumentClient,
  indexes: readonly { partitionKey: string; include?: readonly string[] }[] = [],
): { items: number; capacity: number; writes: number } => {
  const meter = { items: 0, capacity: 0, writes: 0 };
  const indexWrites = (input: Record<string, unknown>): number => {
    const puts: Record<string, unknown>[] = [
      ...(input.Item ? [input.Item as Record<string, unknown>] : []),
      ...Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>)
        .flat()
        .flatMap((request) => (request.PutRequest ? [request.PutRequest.Item] : [])),
      ...((input.TransactItems ?? []) as { Put?: { Item: Record<string, unknown> } }[]).flatMap((item) =>
        item.Put ? [item.Put.Item] : [],
      ),
    ];
    let units = 0;
    for (const item of puts) {
      const kb = Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item)) / 1024));
      for (const index of indexes) if (index.partitionKey in item) units += index.include ? 1 : kb;
    }
    return units;
  };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const write = /Put|Update|Delete|TransactWrite|BatchWrite/.test(String(context.commandName ?? ''));
      if (write && indexes.length > 0) meter.writes += indexWrites(args.input as Record<string, unknown>);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      countOutput(result.output as Record<string, unknown>, write, meter);
      return result;
    },
    { step: 'initialize', name: 'bench-meter' },
  );
  return meter;
};

/** Writes items in bulk (BatchWriteItem, 25 a call, 8 calls at a time, unprocessed ones again): a library built fast. */
export const putItems = async (db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> => {
  const chunks = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, i * 25 + 25));
  for (let i = 0; i < chunks.length; i += 8) {
    await Promise.all(
      chunks.slice(i, i + 8).map(async (part) => {
        let requests = part.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
          requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
      }),
    );
  }
};

/**
 * Calls `call` once to warm up (its result is returned), then 10 times measured: the median items
 * read and RCU of `meter`, the median and p95 latency, as the benches' tables show them.
 */
export const measureCall = async <T>(
  meter: { items: number; capacity: number },
  call: () => Promise<T>,
): Promise<{ result: T; cells: (string | number)[] }> => {
  const result = await call();
  const times: number[] = [];
  const items: number[] = [];
  const capacity: number[] = [];
  for (let i = 0; i < 10; i++) {
    meter.items = 0;
    meter.capacity = 0;
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
    items.push(meter.items);
    capacity.push(meter.capacity);
  }
  return { result, cells: [median(items), median(capacity).toFixed(1), median(times).toFixed(1), percentile(times, 95).toFixed(1)] };
};
