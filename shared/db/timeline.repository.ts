import type { Counter } from '../model/time-bucket.ts';
import { countersOf } from './entities/bucket.ts';
import { partitions } from './keys.ts';
import { queryAll } from './query.ts';

/** Every timeline counter of an owner: one Query of their counter items (one a month), read consistently. */
export const listCounters = async (ownerId: string): Promise<Counter[]> =>
  (await queryAll(partitions.timeBuckets(ownerId))).flatMap((item) => countersOf(String(item.sk), item));
