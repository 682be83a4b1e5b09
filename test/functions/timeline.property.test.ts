import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAssetStatisticsHandler } from '#functions/asset/get-asset-statistics.ts';
import { handler as getTimeBucketHandler } from '#functions/asset/get-time-bucket.ts';
import { handler as getTimeBucketsHandler } from '#functions/asset/get-time-buckets.ts';
import { handler as restoreAssetsHandler } from '#functions/trash/restore-assets.ts';
import * as assetRepo from '#shared/db/asset.repository.ts';
import { noQuota } from '#shared/domain/quota.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import { bearer, createUser, fixtures, login, signUpAdmin } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { trash, updateAsset } from '../support/library.ts';
import { assetRecord } from '../support/records.ts';

// Property: after any sequence of uploads, archives, favourites, trashes, restores and deletes
// (through the real handlers), some of them concurrent on one asset, the time buckets, a bucket's assets and the statistics equal
// what the assets themselves say. The oracle is written from Immich v1.100's SQL (date_trunc of
// localDateTime, visible assets, trashed excluded unless asked), independently of
// shared/domain/time-buckets.ts.

const hour = 3_600_000;

const uploadArb = fc.record({
  kind: fc.constant('upload' as const),
  // Local dates around month ends, with offsets that put the UTC instant in another month.
  local: fc.constantFrom(
    '2022-12-31T23:30:00.000Z',
    '2023-01-01T00:15:00.000Z',
    '2023-01-15T12:00:00.000Z',
    '2023-02-28T22:00:00.000Z',
    '2024-02-29T01:00:00.000Z',
  ),
  offsetHours: fc.constantFrom(-10, -3, 0, 2, 14),
  type: fc.constantFrom('IMAGE' as const, 'IMAGE' as const, 'VIDEO' as const, 'OTHER' as const),
  isVisible: fc.constantFrom(true, true, true, false),
  isFavorite: fc.boolean(),
  isArchived: fc.boolean(),
});
// The changes a step makes to one asset; a delete for good only alone (a burst would race it with itself).
const flips = ['favorite', 'unfavorite', 'archive', 'unarchive', 'trash', 'restore'] as const;
const changeArb = fc.record({
  kind: fc.constantFrom(...flips, 'delete' as const),
  target: fc.nat(),
});
// Several changes of one asset at once (two clients, or a double tap): the counters must not drift.
const burstArb = fc.record({
  kind: fc.constant('burst' as const),
  target: fc.nat(),
  changes: fc.array(fc.constantFrom(...flips), {
    minLength: 2,
    maxLength: 6,
  }),
});
const stepsArb = fc.array(
  fc.oneof({ arbitrary: uploadArb, weight: 2 }, { arbitrary: changeArb, weight: 3 }, { arbitrary: burstArb, weight: 1 }),
  {
    minLength: 1,
    maxLength: 25,
  },
);

/** Immich's bucket of an asset: date_trunc(size, localDateTime) read as UTC. */
const truncate = (localDateTime: string, size: 'DAY' | 'MONTH'): string => {
  const date = new Date(localDateTime);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), size === 'DAY' ? date.getUTCDate() : 1)).toISOString();
};

interface Filter {
  isArchived?: boolean;
  isFavorite?: boolean;
  isTrashed?: boolean;
}

const selected = (assets: readonly AssetRecord[], filter: Filter) =>
  assets.filter(
    (asset) =>
      asset.visibility !== 'hidden' &&
      (filter.isArchived === undefined || (asset.visibility === 'archive') === filter.isArchived) &&
      (filter.isFavorite === undefined || asset.isFavorite === filter.isFavorite) &&
      (asset.deletedAt !== null) === (filter.isTrashed ?? false),
  );

const oracleBuckets = (assets: readonly AssetRecord[], size: 'DAY' | 'MONTH', filter: Filter) => {
  const counts = new Map<string, number>();
  for (const asset of selected(assets, filter)) {
    const bucket = truncate(asset.localDateTime, size);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return [...counts.keys()]
    .sort()
    .reverse()
    .map((timeBucket) => ({ timeBucket, count: counts.get(timeBucket) }));
};

const filters: Filter[] = [
  {},
  { isArchived: false },
  { isArchived: true },
  { isFavorite: true },
  { isTrashed: true },
  { isArchived: false, isFavorite: false },
];
const asQuery = (filter: Filter): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).map(([key, value]) => [key, String(value)]));

let adminToken = '';
beforeAll(async () => {
  await signUpAdmin();
  adminToken = (await login(fixtures.admin)).accessToken;
});

describe('timeline counters', () => {
  it('equal the buckets computed from the assets after any sequence of changes (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(stepsArb, async (steps) => {
        const email = `t${randomUUID().slice(0, 8)}@immich.cloud`;
        const user = await createUser(adminToken, { email, password: 'password', name: 'T' });
        const token = (await login({ email, password: 'password' })).accessToken;
        const auth = bearer(token);
        const ids: string[] = [];
        for (const step of steps) {
          if (step.kind === 'upload') {
            const fileCreatedAt = new Date(new Date(step.local).getTime() - step.offsetHours * hour).toISOString();
            const asset = assetRecord(user.id, {
              at: fileCreatedAt,
              localDateTime: step.local,
              type: step.type,
              visibility: !step.isVisible ? 'hidden' : step.isArchived ? 'archive' : 'timeline',
              isFavorite: step.isFavorite,
            });
            await assetRepo.recordUpload({ asset, faces: [], newPeople: [], existingPeople: new Set(), quota: noQuota });
            ids.push(asset.id);
            continue;
          }
          if (ids.length === 0) continue;
          const id = ids[step.target % ids.length] ?? '';
          const change = async (kind: (typeof changeArb extends fc.Arbitrary<infer C> ? C : never)['kind']): Promise<number> => {
            if (kind === 'trash' || kind === 'delete') return (await trash(token, [id], kind === 'delete')).status;
            if (kind === 'restore')
              return (
                await invoke(restoreAssetsHandler, {
                  method: 'POST',
                  path: '/api/trash/restore/assets',
                  headers: auth,
                  body: { ids: [id] },
                })
              ).status;
            const body = {
              favorite: { isFavorite: true },
              unfavorite: { isFavorite: false },
              archive: { isArchived: true },
              unarchive: { isArchived: false },
            }[kind];
            return (await updateAsset(token, id, body)).status;
          };
          if (step.kind === 'burst') {
            // Concurrent changes each land on the state they read, or give up with a 409 after retries.
            for (const status of await Promise.all(step.changes.map(change))) expect([200, 204, 400, 409]).toContain(status);
            continue;
          }
          // A deleted asset answers 400 to every later change, and nothing moves.
          expect([200, 204, 400]).toContain(await change(step.kind));
        }

        const assets = (await Promise.all(ids.map((id) => assetRepo.get(id)))).filter((asset): asset is AssetRecord => asset !== undefined);
        for (const size of ['MONTH', 'DAY'] as const) {
          for (const filter of filters) {
            const reply = await invoke(getTimeBucketsHandler, {
              path: '/api/asset/time-buckets',
              query: { size, ...asQuery(filter) },
              headers: auth,
            });
            expect(reply.body, `${size} ${JSON.stringify(filter)}`).toEqual(oracleBuckets(assets, size, filter));
          }
        }
        // Each month's assets, newest first.
        for (const { timeBucket } of oracleBuckets(assets, 'MONTH', {})) {
          const reply = await invoke(getTimeBucketHandler, {
            path: '/api/asset/time-bucket',
            query: { size: 'MONTH', timeBucket },
            headers: auth,
          });
          const expected = selected(assets, {})
            .filter((asset) => truncate(asset.localDateTime, 'MONTH') === timeBucket)
            .sort((a, b) => b.fileCreatedAt.localeCompare(a.fileCreatedAt) || b.id.localeCompare(a.id))
            .map((asset) => asset.id);
          expect(reply.body.map((asset: { id: string }) => asset.id)).toEqual(expected);
        }
        const stats = await invoke(getAssetStatisticsHandler, { path: '/api/asset/statistics', headers: auth });
        const live = selected(assets, {});
        expect(stats.body).toEqual({
          images: live.filter((asset) => asset.type === 'IMAGE').length,
          videos: live.filter((asset) => asset.type === 'VIDEO').length,
          total: live.length,
        });
      }),
      { numRuns: 16 },
    );
  });
});
