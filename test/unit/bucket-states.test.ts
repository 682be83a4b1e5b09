import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { countersOf, slotOf } from '#shared/db/items/bucket.ts';
import * as bucketWrites from '#shared/db/items/bucket-writes.ts';
import { bucketsFrom, matchesFilter } from '#shared/domain/time-buckets.ts';
import { AssetStatsDto } from '#shared/dto/v1/timeline.ts';
import type { AssetRecord } from '#shared/model/asset.ts';

type Counted = Pick<AssetRecord, 'id' | 'localDateTime' | 'visibility' | 'isFavorite' | 'deletedAt' | 'type' | 'exif' | 'stack'>;
const asset = (visibility: AssetRecord['visibility'], extra: Partial<Counted> = {}): Counted => ({
  id: 'a',
  stack: null,
  localDateTime: '2024-03-05T10:00:00.000Z',
  visibility,
  isFavorite: false,
  deletedAt: null,
  type: 'IMAGE',
  exif: { city: 'Oslo', state: null, country: 'Norway', make: 'Canon', model: 'R5' } as AssetRecord['exif'],
  ...extra,
});

/** The counter attributes the writes for these assets add up to (as one month's item holds them). */
const attributesOf = (assets: Counted[]): Record<string, number> => {
  const totals: Record<string, number> = {};
  for (const each of assets) {
    for (const write of bucketWrites.move('owner', undefined, slotOf(each))) {
      const update = write.item.Update;
      if (!update) continue;
      const names = update.ExpressionAttributeNames ?? {};
      const values = update.ExpressionAttributeValues ?? {};
      for (const [key, name] of Object.entries(names)) {
        if (key === '#type') continue;
        totals[name] = (totals[name] ?? 0) + Number(values[key.replace('#', ':')]);
      }
    }
  }
  return totals;
};

describe('the timeline counters’ states', () => {
  it('counts a locked asset in a state of its own, with no place or camera; a hidden one nowhere', () => {
    expect(slotOf(asset('hidden'))).toBeUndefined();
    const locked = slotOf(asset('locked', { isFavorite: true }));
    expect(locked).toMatchObject({ month: '2024-03', day: '05', state: 'L10I', facets: [] });
    expect(slotOf(asset('archive'))).toMatchObject({
      state: '100I',
      facets: ['xp["Norway",null,"Oslo"]', 'xc["Canon","R5"]', 'xl["Canon","R5",null]'],
    });
  });

  it('reads the locked folder back only when it is asked for by name', () => {
    const attributes = attributesOf([
      asset('timeline'),
      asset('archive'),
      asset('locked'),
      asset('locked', { deletedAt: '2024-04-01T00:00:00.000Z' }),
    ]);
    const counters = countersOf('2024-03', attributes);
    const months = (filter: Parameters<typeof bucketsFrom>[2]) => bucketsFrom(counters, 'MONTH', filter, 'desc');
    expect(months({})).toEqual([{ timeBucket: '2024-03-01T00:00:00.000Z', count: 2 }]);
    expect(months({ visibility: 'timeline' })[0]?.count).toBe(1);
    expect(months({ visibility: 'locked' })[0]?.count).toBe(1);
    expect(months({ visibility: 'locked', isTrashed: true })[0]?.count).toBe(1);
    expect(months({ isTrashed: true })).toEqual([]);
    // v1.100's isArchived=false, as its DTO reads it into the filter.
    expect(months(v.parse(AssetStatsDto, { isArchived: 'false' }))[0]?.count).toBe(1);
    const lockedState = counters.find((counter) => counter.state.isLocked)?.state;
    expect(lockedState && matchesFilter(lockedState, { visibility: 'archive' })).toBe(false);
    // An unknown first character is no state at all.
    expect(countersOf('2024-03', { m_X00I: 3 })).toEqual([]);
  });

  it('counts a stack’s members other than its primary also apart, for a timeline asked withStacked', () => {
    const stack = { id: 's', primaryAssetId: 'a', assetCount: 2 };
    expect(slotOf(asset('timeline', { stack }))?.hiddenInStack).toBe(false);
    expect(slotOf(asset('timeline', { id: 'b', stack }))?.hiddenInStack).toBe(true);
    const attributes = attributesOf([asset('timeline', { stack }), asset('timeline', { id: 'b', stack })]);
    expect(attributes).toMatchObject({ m_000I: 2, d05_000I: 2, sm_000I: 1, sd05_000I: 1 });
    expect(countersOf('2024-03', attributes).filter((counter) => counter.size === 'MONTH')).toHaveLength(1);
    expect(countersOf('2024-03', attributes, true)).toEqual([
      { period: '2024-03', size: 'MONTH', state: expect.objectContaining({ isArchived: false }), count: 1 },
      { period: '2024-03-05', size: 'DAY', state: expect.objectContaining({ isArchived: false }), count: 1 },
    ]);
  });
});
