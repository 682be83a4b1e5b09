import { randomUUID } from 'node:crypto';
import type { AssetRecord } from '#shared/model/asset.ts';
import { assetRecord, cameraExif } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { table } from './stats.ts';
import { measureCall, meterReads, putItems } from './table-io.ts';

/**
 * The timeline at library scale (issue: the apps' read side): one user's library grows to 1k,
 * 10k, then 50k assets (the items an upload writes, the timeline counters included), and the
 * web app's calls are measured through the local server: the bucket list (MONTH, DAY), one
 * month's assets, the statistics; then the mobile app's delta sync after 10 changes and a delete.
 */
const sizes = (process.env.TIMELINE_BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);

let seed = 20261123;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const start = Date.UTC(2014, 0, 1);
const span = 10 * 365 * 86_400_000;

const measure = async (): Promise<string> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName, adminAuth } = stack;
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk');

  const meter = meterReads(db);
  const put = (items: Record<string, unknown>[]) => putItems(db, tableName, items);

  try {
    const email = 'timeline@immich.cloud';
    const user = await sdk.createUser({ createUserDto: { email, password: 'password', name: 'Timeline' } }, adminAuth);
    const token = (await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl })).accessToken;
    const auth = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
    const assets: AssetRecord[] = [];
    const rows: (string | number)[][] = [];

    const timed = async (size: number, name: string, call: () => Promise<unknown>, count: (result: unknown) => number) => {
      const { result, cells } = await measureCall(meter, call);
      rows.push([size.toLocaleString('en'), name, count(result), ...cells]);
    };

    for (const size of sizes) {
      const built = performance.now();
      const added: AssetRecord[] = [];
      while (assets.length + added.length < size) {
        const when = new Date(start + Math.floor(random() * span)).toISOString();
        added.push(
          assetRecord(user.id, {
            id: randomUUID(),
            deviceAssetId: `bench-${assets.length + added.length}`,
            deviceId: 'bench',
            type: random() < 0.1 ? 'VIDEO' : 'IMAGE',
            at: when,
            deletedAt: random() < 0.01 ? when : null,
            isFavorite: random() < 0.05,
            visibility: random() < 0.02 ? 'archive' : 'timeline',
            exif: cameraExif(when),
          }),
        );
      }
      assets.push(...added);
      // The counters of the whole library (each month's item rewritten as the transactions would have left it).
      await put([
        ...added.flatMap((asset) => [assetItem(asset), checksumItem(user.id, asset.checksum, asset.id)]),
        ...counterItemsOf(user.id, assets),
      ]);
      const buildSeconds = ((performance.now() - built) / 1000).toFixed(0);
      const label = size;
      const buckets = await sdk.getTimeBuckets({ size: sdk.TimeBucketSize.Month, isArchived: false }, auth);
      const busiest = [...buckets].sort((a, b) => b.count - a.count)[0]?.timeBucket ?? '';
      await timed(
        label,
        'time buckets (MONTH, not archived)',
        () => sdk.getTimeBuckets({ size: sdk.TimeBucketSize.Month, isArchived: false }, auth),
        (r) => (r as unknown[]).length,
      );
      await timed(
        label,
        'time buckets (DAY)',
        () => sdk.getTimeBuckets({ size: sdk.TimeBucketSize.Day, isArchived: false }, auth),
        (r) => (r as unknown[]).length,
      );
      await timed(
        label,
        'the busiest month (time-bucket)',
        () => sdk.getTimeBucket({ size: sdk.TimeBucketSize.Month, timeBucket: busiest, isArchived: false }, auth),
        (r) => (r as unknown[]).length,
      );
      await timed(
        label,
        'asset statistics',
        () => sdk.getAssetStatistics({}, auth),
        (r) => (r as { total: number }).total,
      );

      // The mobile app's delta sync after 10 changes and a delete (past the index's lag window).
      await new Promise((resolve) => setTimeout(resolve, 5_200));
      const since = new Date().toISOString();
      for (const asset of assets.slice(0, 10))
        await sdk.updateAsset({ id: asset.id, updateAssetDto: { isFavorite: !asset.isFavorite } }, auth);
      const gone = assets.pop() as AssetRecord;
      await sdk.deleteAssets({ assetBulkDeleteDto: { ids: [gone.id], force: true } }, auth);
      for (const asset of assets.slice(0, 10)) asset.isFavorite = !asset.isFavorite;
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await timed(
        label,
        'delta sync: assets changed since',
        () => sdk.getAllAssets({ userId: user.id, updatedAfter: since }, auth),
        (r) => (r as unknown[]).length,
      );
      await timed(
        label,
        'delta sync: deletions since',
        () => sdk.getAuditDeletes({ after: since, entityType: sdk.EntityType.Asset, userId: user.id }, auth),
        (r) => (r as { ids: unknown[] }).ids.length,
      );
      rows.push([size.toLocaleString('en'), `(built in ${buildSeconds} s)`, '', '', '', '', '']);
    }
    return [
      'One user; dates over ten years, 10% videos, 5% favourites, 2% archived, 1% trashed; through the local server on DynamoDB Local, as the web app and the mobile app call it. "Items read" counts what DynamoDB read for the request (Query ScannedCount, BatchGetItem and GetItem items, authentication included); "RCU" is its ReturnConsumedCapacity. The bucket list and the statistics read one counter item a month (120 here) whatever the library; a month reads about its own assets (plus the day either side its local dates can fall in); a delta sync reads what changed.',
      '',
      table(['library', 'request', 'results', 'items read', 'RCU', 'median ms', 'p95 ms'], rows),
    ].join('\n');
  } finally {
    await stack.stop();
  }
};

// Handlers read TABLE_NAME and the endpoint when first imported: this section runs in its own process.
if (import.meta.main) process.stdout.write(await measure());

export const timelineSection: Section = { name: 'timeline', run: ownProcess(import.meta.url) };
