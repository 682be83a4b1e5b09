import type { AssetVisibility } from '../model/asset.ts';
import { type BucketSize, type BucketState, bucketStart, type Counter, periodOfAsset } from '../model/time-bucket.ts';

/** What GET /asset/time-buckets and /asset/statistics filter on (undefined: either). */
export interface BucketFilter {
  isFavorite?: boolean | undefined;
  /** Immich's default: not trashed. */
  isTrashed?: boolean | undefined;
  /**
   * The counters hold the timeline, the archive and the locked folder (never `hidden`): one of them
   * by name, or (absent) the timeline and the archive; the locked folder only when asked for by
   * name. v1.100's `isArchived` is read into it by its DTO (true the archive, false the timeline).
   */
  visibility?: AssetVisibility | undefined;
}

const visibilityMatches = (state: BucketState, visibility: AssetVisibility | undefined): boolean => {
  if (visibility === 'locked' || state.isLocked) return visibility === 'locked' && state.isLocked;
  return visibility === undefined || (visibility === 'archive' ? state.isArchived : visibility === 'timeline' && !state.isArchived);
};

export const matchesFilter = (state: BucketState, filter: BucketFilter): boolean =>
  visibilityMatches(state, filter.visibility) &&
  (filter.isFavorite === undefined || state.isFavorite === filter.isFavorite) &&
  state.isTrashed === (filter.isTrashed ?? false);

/** How many assets one bucket (a month or a day) holds. */
export interface BucketCount {
  timeBucket: string;
  count: number;
}

/** Buckets from counts per period, in the order asked (Immich: newest first). */
export const bucketList = (totals: ReadonlyMap<string, number>, order: 'asc' | 'desc'): BucketCount[] => {
  const periods = [...totals.keys()].sort();
  if (order === 'desc') periods.reverse();
  return periods.map((period) => ({ timeBucket: bucketStart(period), count: totals.get(period) ?? 0 }));
};

/**
 * Buckets of one size from the timeline counters, summed over the states the filter keeps, less
 * the `hidden` ones (the stacks' members a timeline asked `withStacked` leaves out).
 */
export const bucketsFrom = (
  counters: readonly Counter[],
  size: BucketSize,
  filter: BucketFilter,
  order: 'asc' | 'desc',
  hidden: readonly Counter[] = [],
): BucketCount[] => {
  const totals = new Map<string, number>();
  const add = (counter: Counter, sign: 1 | -1) => {
    if (counter.size !== size || !matchesFilter(counter.state, filter)) return;
    totals.set(counter.period, (totals.get(counter.period) ?? 0) + sign * counter.count);
  };
  for (const counter of counters) add(counter, 1);
  for (const counter of hidden) add(counter, -1);
  for (const [period, count] of totals) if (count <= 0) totals.delete(period);
  return bucketList(totals, order);
};

/**
 * The period a requested bucket names: Immich compares `date_trunc(size, localDateTime)` with it
 * (a leading sign dropped), so only the start of a period finds assets (`null`: none can match).
 * Undefined if it is not a date at all.
 */
export const periodOf = (timeBucket: string, size: BucketSize): string | null | undefined => {
  // Immich's clients may send an extended year (`+012345-01-01T…`, which Date reads as it is); a
  // sign before a four-digit year is read without it.
  let date = new Date(timeBucket);
  if (Number.isNaN(date.getTime())) date = new Date(timeBucket.replace(/^[+-]/, ''));
  if (Number.isNaN(date.getTime())) return undefined;
  const period = periodOfAsset(date.toISOString(), size);
  return bucketStart(period) === date.toISOString() ? period : null;
};
