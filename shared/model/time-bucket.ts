import type { AssetRecord, AssetType } from './asset.ts';

/**
 * The timeline's buckets: Immich groups assets by `date_trunc(size, localDateTime)`, the local
 * date written as UTC. A period is `YYYY-MM` (MONTH) or `YYYY-MM-DD` (DAY).
 */
export type BucketSize = 'DAY' | 'MONTH';

/** What a timeline counter tells apart: the filters the apps send, and the type (statistics). */
export interface BucketState {
  isArchived: boolean;
  /** In the locked folder (v3's `visibility: locked`): counted apart, shown only there. */
  isLocked: boolean;
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

const hour = 3_600_000;

/**
 * The instants (`fileCreatedAt`) an asset whose `localDateTime` falls in this period can have:
 * local time is UTC−12 to UTC+14, so the period widened by 14 hours each side, as a key range of
 * the timeline.
 */
export const localPeriodRange = (period: string, size: BucketSize): { from: string; to: string } => {
  const start = new Date(bucketStart(period));
  const end = new Date(start);
  if (size === 'MONTH') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCDate(end.getUTCDate() + 1);
  return { from: new Date(start.getTime() - 14 * hour).toISOString(), to: new Date(end.getTime() + 14 * hour).toISOString() };
};

/** A bucket's assets, and whether a visitor gets them sanitized (their link hides metadata). */
export interface BucketAssets {
  assets: AssetRecord[];
  sanitized: boolean;
}
