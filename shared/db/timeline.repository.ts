import type { Counter } from '../model/time-bucket.ts';
import { countersOf, type Facet, facetsOf } from './items/bucket.ts';
import { partitions } from './keys.ts';
import { queryAll } from './query.ts';

/** Every timeline counter of an owner: one Query of their counter items (one a month), read consistently. */
export const listCounters = async (ownerId: string): Promise<Counter[]> =>
  (await queryAll(partitions.timeBuckets(ownerId))).flatMap((item) => countersOf(String(item.sk), item));

/** The same Query, with the counters of the stacks' hidden members apart (a timeline asked `withStacked` takes them away). */
export const listCountersWithStacks = async (ownerId: string): Promise<{ counters: Counter[]; stackHidden: Counter[] }> => {
  const items = await queryAll(partitions.timeBuckets(ownerId));
  return {
    counters: items.flatMap((item) => countersOf(String(item.sk), item)),
    stackHidden: items.flatMap((item) => countersOf(String(item.sk), item, true)),
  };
};

export type { Facet } from './items/bucket.ts';

/** Every place and camera combination of an owner's untrashed assets, with counts: the same Query, summed over months. */
export const listFacets = async (ownerId: string): Promise<Facet[]> => {
  const totals = new Map<string, Facet>();
  for (const item of await queryAll(partitions.timeBuckets(ownerId))) {
    for (const facet of facetsOf(item)) {
      const key = `${facet.kind}${JSON.stringify(facet.values)}`;
      const known = totals.get(key);
      totals.set(key, known ? { ...known, count: known.count + facet.count } : facet);
    }
  }
  return [...totals.values()];
};
