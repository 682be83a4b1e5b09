import type { AssetType } from './asset.ts';

/**
 * The timeline's buckets: Immich groups assets by `date_trunc(size, localDateTime)`, the local
 * date written as UTC. A period is `YYYY-MM` (MONTH) or `YYYY-MM-DD` (DAY).
 */
export type BucketSize = 'DAY' | 'MONTH';

/** What a timeline counter tells apart: the filters the apps send, and the type (statistics). */
export interface BucketState {
  isArchived: boolean;
  isFavorite: boolean;
  isTrashed: boolean;
  type: AssetType;
}

/** One count of the owner's timeline counters: the month or the day it counts, the state, the count. */
export interface Counter {
  period: string;
  size: BucketSize;
  state: BucketState;
  count: number;
}

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/** The period (of the size asked) of a `localDateTime`. */
export const periodOfAsset = (localDateTime: string, size: BucketSize): string => {
  const date = new Date(localDateTime);
  const month = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}`;
  return size === 'MONTH' ? month : `${month}-${pad(date.getUTCDate())}`;
};

/** The start of a period as Immich writes a bucket: `2024-01-01T00:00:00.000Z`. */
export const bucketStart = (period: string): string => {
  const [year = 0, month = 1, day = 1] = period.split('-').map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.toISOString();
};
