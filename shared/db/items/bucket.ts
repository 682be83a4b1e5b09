import { type AssetRecord, type AssetType, hiddenInStack } from '../../model/asset.ts';
import { type BucketState, type Counter, periodOfAsset } from '../../model/time-bucket.ts';
import * as keys from '../item-keys.ts';
import { updateWrite, type Write } from '../transact.ts';

/**
 * The timeline counters (docs/data-model.md, "Timeline counters"): per owner and month of
 * `localDateTime`, one item whose numeric attributes count the owner's visible assets by state,
 * named `m_<state>` (the month) or `d<DD>_<state>` (one day of it). The state is four characters:
 * where it shows (`0` the timeline, `1` the archive, `L` the locked folder), favourite and trashed
 * as `0`/`1`, then the type's initial (`I`, `V`, `A`, `O`).
 */
export interface BucketSlot {
  /** The counter item's sort key, `YYYY-MM`. */
  month: string;
  /** Two digits. */
  day: string;
  state: string;
  /**
   * The facet counters it adds to (untrashed assets only): its place `xp["<country>","<state>","<city>"]`,
   * its camera `xc["<make>","<model>"]` and its camera with its lens `xl["<make>","<model>","<lensModel>"]`,
   * each when it has one (GET /search/suggestions, explore).
   */
  facets: string[];
  /**
   * A stack's member other than its primary: counted also in the `s`-prefixed counters
   * (`sm_<state>`, `sd<DD>_<state>`), which a timeline asked `withStacked` takes away.
   */
  hiddenInStack: boolean;
}

/** One facet counter: a place, a camera or a camera-and-lens combination and how many untrashed visible assets have it. */
export interface Facet {
  kind: 'place' | 'camera' | 'lens';
  values: (string | null)[];
  count: number;
}

const facetKinds = { p: 'place', c: 'camera', l: 'lens' } as const;

const facetName = (kind: keyof typeof facetKinds, values: (string | null)[]): string | undefined =>
  values.some((value) => value !== null && value !== '') ? `x${kind}${JSON.stringify(values.map((value) => value || null))}` : undefined;

const typeCodes: Record<AssetType, string> = { IMAGE: 'I', VIDEO: 'V', AUDIO: 'A', OTHER: 'O' };
const typesByCode = new Map(Object.entries(typeCodes).map(([type, code]) => [code, type as AssetType]));

const flag = (value: boolean): string => (value ? '1' : '0');

const stateCode = (state: BucketState): string =>
  `${state.isLocked ? 'L' : flag(state.isArchived)}${flag(state.isFavorite)}${flag(state.isTrashed)}${typeCodes[state.type]}`;

const parseState = (code: string): BucketState | undefined => {
  const type = typesByCode.get(code[3] ?? '');
  if (code.length !== 4 || !type || !'01L'.includes(code[0] ?? '')) return undefined;
  return { isArchived: code[0] === '1', isLocked: code[0] === 'L', isFavorite: code[1] === '1', isTrashed: code[2] === '1', type };
};

/**
 * Where an asset counts: nothing for a hidden asset (a motion photo's video), as Immich's timeline
 * never shows one. A locked one counts in the locked folder's state only, and in no place or camera
 * (explore and the suggestions never show it).
 */
export const slotOf = (
  asset: Pick<AssetRecord, 'id' | 'localDateTime' | 'visibility' | 'isFavorite' | 'deletedAt' | 'type' | 'exif' | 'stack'>,
): BucketSlot | undefined => {
  if (asset.visibility === 'hidden') return undefined;
  const day = periodOfAsset(asset.localDateTime, 'DAY');
  const { country, state, city, make, model, lensModel } = asset.exif;
  return {
    month: periodOfAsset(asset.localDateTime, 'MONTH'),
    day: day.slice(-2),
    state: stateCode({
      isArchived: asset.visibility === 'archive',
      isLocked: asset.visibility === 'locked',
      isFavorite: asset.isFavorite,
      isTrashed: asset.deletedAt !== null,
      type: asset.type,
    }),
    facets:
      asset.deletedAt !== null || asset.visibility === 'locked'
        ? []
        : [facetName('p', [country, state, city]), facetName('c', [make, model]), facetName('l', [make, model, lensModel])].flatMap(
            (name) => name ?? [],
          ),
    hiddenInStack: hiddenInStack(asset),
  };
};

export const counterNames = (slot: BucketSlot): string[] => [
  `m_${slot.state}`,
  `d${slot.day}_${slot.state}`,
  ...slot.facets,
  ...(slot.hiddenInStack ? [`sm_${slot.state}`, `sd${slot.day}_${slot.state}`] : []),
];

/** The facet counters of one counter item; zeros left out. */
export const facetsOf = (attributes: Record<string, unknown>): Facet[] =>
  Object.entries(attributes).flatMap(([name, value]): Facet[] => {
    if (!/^x[pcl]\[/.test(name) || typeof value !== 'number' || value <= 0) return [];
    try {
      const values = JSON.parse(name.slice(2)) as (string | null)[];
      return [{ kind: facetKinds[name[1] as keyof typeof facetKinds], values, count: value }];
    } catch {
      return [];
    }
  });
const counterName = /^(m|d(\d{2}))_(\w{4})$/;
const stackHiddenName = /^s(m|d(\d{2}))_(\w{4})$/;

/**
 * The counters of one counter item (its sort key `YYYY-MM` and its attributes); zeros left out.
 * With `stackHidden`, those of the stacks' hidden members instead.
 */
export const countersOf = (month: string, attributes: Record<string, unknown>, stackHidden = false): Counter[] =>
  Object.entries(attributes).flatMap(([name, value]): Counter[] => {
    const match = (stackHidden ? stackHiddenName : counterName).exec(name);
    const state = match?.[3] ? parseState(match[3]) : undefined;
    if (!match || !state || typeof value !== 'number' || value <= 0) return [];
    return [
      match[2]
        ? { period: `${month}-${match[2]}`, size: 'DAY', state, count: value }
        : { period: month, size: 'MONTH', state, count: value },
    ];
  });

/** Every month counter a counter item can hold (`m_<state>`, each state of `stateCode`). */
const monthCounterNames = ['0', '1', 'L'].flatMap((shown) =>
  ['0', '1'].flatMap((favourite) =>
    ['0', '1'].flatMap((trashed) => ['I', 'V', 'A', 'O'].map((type) => `m_${shown}${favourite}${trashed}${type}`)),
  ),
);

/** The lens facets (`xl[…]`) an asset counts in: those of its slot. */
export const lensFacetsOf = (asset: Parameters<typeof slotOf>[0]): string[] =>
  (slotOf(asset)?.facets ?? []).filter((name) => name.startsWith('xl['));

/**
 * Gives a counter item written before the lens facets (docs/data-model.md, "Earlier shapes") the
 * `xl[…]` counts of its month's assets (`counts`, each lens facet's), and marks it `lensCounted`:
 * only while it is unmarked and its month counters are still those read (`item`), as every write
 * that moves a lens facet (an upload, a trash or a lock, a deletion, a new date) moves one of them.
 */
export const lensFacetsWrite = (ownerId: string, item: Record<string, unknown>, counts: ReadonlyMap<string, number>): Write => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':true': true };
  const sets = ['lensCounted = :true'];
  [...counts].forEach(([name, count], index) => {
    names[`#l${index}`] = name;
    values[`:l${index}`] = count;
    sets.push(`#l${index} = :l${index}`);
  });
  // Lens facets the item holds that its assets do not (moves since the upgrade that net to nothing).
  const removed = Object.keys(item)
    .filter((name) => name.startsWith('xl[') && !counts.has(name))
    .map((name, index) => {
      names[`#r${index}`] = name;
      return `#r${index}`;
    });
  const conditions = ['attribute_exists(pk)', 'attribute_not_exists(lensCounted)'];
  monthCounterNames.forEach((name, index) => {
    names[`#m${index}`] = name;
    const value = item[name];
    if (typeof value === 'number') {
      values[`:m${index}`] = value;
      conditions.push(`#m${index} = :m${index}`);
    } else conditions.push(`attribute_not_exists(#m${index})`);
  });
  return updateWrite(
    keys.timeBuckets(ownerId, String(item.sk)),
    `SET ${sets.join(', ')}${removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''}`,
    { condition: conditions.join(' AND '), names, values },
  );
};

/**
 * The counter items a set of an owner's assets adds up to: what the transactions would have
 * written one asset at a time (for seeding a table in bulk: benches, imports).
 */
export const counterItemsOf = (ownerId: string, assets: readonly AssetRecord[]): Record<string, unknown>[] => {
  const months = new Map<string, Record<string, unknown>>();
  for (const asset of assets) {
    const slot = slotOf(asset);
    if (!slot) continue;
    const item = months.get(slot.month) ?? { ...keys.timeBuckets(ownerId, slot.month), type: 'timeBuckets' };
    for (const name of counterNames(slot)) item[name] = Number(item[name] ?? 0) + 1;
    months.set(slot.month, item);
  }
  return [...months.values()];
};
