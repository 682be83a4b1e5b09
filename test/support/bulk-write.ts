import { inBatches } from '#shared/core/concurrency.ts';
import { batchPut, chunk } from '#shared/db/batch.ts';

/**
 * Writes many items straight to the table (a large library a test reads, as uploads would leave
 * it), several BatchWriteItem calls of 25 in flight at once: DynamoDB Local takes four at a time
 * in about a third of the time of one after another (5,000 asset items: 7 s rather than 22 s on a
 * busy 2-core machine). `batchPut` itself sends its calls one after another, as a request path should.
 */
export const putItems = (items: readonly Record<string, unknown>[]): Promise<void> =>
  inBatches(chunk(items, 25), 4, (part) => batchPut(part));
