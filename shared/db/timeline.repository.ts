import { type Counter, localPeriodRange, periodOfAsset } from '../model/time-bucket.ts';
import * as assetRepo from './asset.repository.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { countersOf, type Facet, facetsOf, lensFacetsOf, lensFacetsWrite, slotOf } from './items/bucket.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { updateWrite, writeIfPresent } from './transact.ts';

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

/**
 * Gives the counters of a library written before the lens facets (`xl[…]`, docs/data-model.md,
 * "Earlier shapes") theirs, once (pattern 55): each month not yet `lensCounted`, its assets read
 * (pattern 42's key range) and counted, when they are as many as its counters say (the index may
 * lag a write), then written on condition that its counters did not move meanwhile; the user is
 * marked `lensesIndexed` once every month is. At most `budget` assets a call, the rest left to the
 * next. Whether the owner's lens facets are complete now.
 */
export const indexLensFacets = async (ownerId: string, budget = 20_000): Promise<boolean> => {
  const user = await getItem(keys.user(ownerId));
  if (!user || user.lensesIndexed === true) return true;
  let complete = true;
  let examined = 0;
  for (const item of await queryAll(partitions.timeBuckets(ownerId))) {
    if (item.lensCounted === true) continue;
    if (examined >= budget) {
      complete = false;
      break;
    }
    const month = String(item.sk);
    const { from, to } = localPeriodRange(month, 'MONTH');
    const assets = (await assetRepo.assetsTakenBetween(ownerId, from, to)).filter(
      (asset) => periodOfAsset(asset.localDateTime, 'MONTH') === month && slotOf(asset) !== undefined,
    );
    examined += assets.length;
    const counted = countersOf(month, item)
      .filter((counter) => counter.size === 'MONTH')
      .reduce((total, counter) => total + counter.count, 0);
    if (counted !== assets.length) {
      complete = false;
      continue;
    }
    const counts = new Map<string, number>();
    for (const asset of assets) for (const name of lensFacetsOf(asset)) counts.set(name, (counts.get(name) ?? 0) + 1);
    if (!(await writeIfPresent(lensFacetsWrite(ownerId, item, counts)))) complete = false;
  }
  if (complete)
    await writeIfPresent(
      updateWrite(keys.user(ownerId), 'SET lensesIndexed = :true', { condition: 'present', sync: 'unsent', values: { ':true': true } }),
    );
  return complete;
};
