import { inBatches } from '../core/concurrency.ts';
import * as assetRepo from '../db/asset.repository.ts';
import { type AssetRecord, inTimeline } from '../model/asset.ts';

const hour = 3_600_000;

/**
 * "On this day": the owners' photos taken on one calendar day (`month`/`day` of their local time)
 * of each year before `year`, by year, each year's in time order. Visible in the timeline, not
 * trashed, with a preview (Immich's rule, for v1.100's memory lane and v3's nightly memories
 * alike). One Query of an owner's timeline per earlier year since their oldest photo, over the
 * instants a local day can cover (UTC−12 to UTC+14), eight in flight: never the whole library.
 * `perYear` keeps each year's first ones (v3's job takes 20).
 */
export const takenOnThisDay = async (
  ownerIds: readonly string[],
  { year, month, day }: { year: number; month: number; day: number },
  perYear = Number.POSITIVE_INFINITY,
): Promise<Map<number, AssetRecord[]>> => {
  const byYear = new Map<number, AssetRecord[]>();
  const oldest = await Promise.all(ownerIds.map((ownerId) => assetRepo.oldestTakenAt(ownerId)));
  const queries = ownerIds.flatMap((ownerId, index) => {
    const first = oldest[index];
    if (!first) return [];
    const firstYear = new Date(new Date(first).getTime() - 14 * hour).getUTCFullYear();
    return Array.from({ length: Math.max(0, year - firstYear) }, (_, back) => ({ ownerId, year: year - 1 - back }));
  });
  await inBatches(queries, 8, async (query) => {
    const start = Date.UTC(query.year, month - 1, day);
    // Feb 29 of a year without one is no day of that year.
    if (new Date(start).getUTCDate() !== day) return;
    const assets = await assetRepo.assetsTakenBetween(
      query.ownerId,
      new Date(start - 14 * hour).toISOString(),
      new Date(start + 36 * hour).toISOString(),
    );
    const kept = assets.filter((asset) => {
      const local = new Date(asset.localDateTime);
      return (
        local.getUTCFullYear() === query.year &&
        local.getUTCMonth() === month - 1 &&
        local.getUTCDate() === day &&
        inTimeline(asset) &&
        asset.resizePath !== null
      );
    });
    if (kept.length > 0) byYear.set(query.year, [...(byYear.get(query.year) ?? []), ...kept]);
  });
  for (const [found, assets] of byYear) {
    assets.sort((a, b) => a.localDateTime.localeCompare(b.localDateTime) || a.id.localeCompare(b.id));
    byYear.set(found, assets.slice(0, perYear));
  }
  return byYear;
};
