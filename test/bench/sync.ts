import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { AssetRecord } from '#shared/model/asset.ts';
import { appTypes } from '../support/app-sync-types.ts';
import { assetRecord, cameraExif } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { table } from './stats.ts';
import { meterReads, putItems } from './table-io.ts';

/**
 * The mobile app's sync stream at library scale (docs/immich-compatibility.md, "The sync stream"):
 * one user's library grows to 1k, 10k, then 50k assets, and the app's first sync (every type it
 * asks for) is read over HTTP from the local server, gzip-compressed as the app asks for it; then
 * an incremental sync after 10 changes. Items read and RCU are DynamoDB's for the request; the
 * peak is the server process's heap above what it held before (the client discards each line).
 */
const sizes = (process.env.SYNC_BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);

let seed = 20261127;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const start = Date.UTC(2014, 0, 1);
const span = 10 * 365 * 86_400_000;

interface StreamStats {
  lines: number;
  wireBytes: number;
  bytes: number;
  lastAcks: Map<string, string>;
}

/** POST /sync/stream with gzip, counting what crosses the wire and what it decompresses to, line by line. */
const stream = (baseUrl: string, token: string): Promise<StreamStats> =>
  new Promise((resolve, reject) => {
    const url = new URL(`${baseUrl}/sync/stream`);
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${token}` },
      },
      (res) => {
        const stats: StreamStats = { lines: 0, wireBytes: 0, bytes: 0, lastAcks: new Map() };
        let rest = '';
        res.on('data', (chunk: Buffer) => {
          stats.wireBytes += chunk.length;
        });
        const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
        body.on('data', (chunk: Buffer) => {
          stats.bytes += chunk.length;
          const parts = (rest + chunk.toString('utf8')).split('\n');
          rest = parts.pop() ?? '';
          for (const part of parts) {
            stats.lines++;
            const { type, ack } = JSON.parse(part) as { type: string; ack: string };
            stats.lastAcks.set(type, ack);
          }
        });
        body.on('end', () => resolve(stats));
        body.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ types: appTypes }));
  });

const measure = async (): Promise<string> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName, adminAuth } = stack;
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk-v3');
  const meter = meterReads(db);

  try {
    await sdk.createUserAdmin(
      { userAdminCreateDto: { email: 'sync@immich.cloud', password: 'password', name: 'Sync', shouldChangePassword: false } },
      adminAuth,
    );
    const user = await sdk.login({ loginCredentialDto: { email: 'sync@immich.cloud', password: 'password' } }, { baseUrl });
    const auth = { baseUrl, headers: { Authorization: `Bearer ${user.accessToken}` } };
    const assets: AssetRecord[] = [];
    const rows: (string | number)[][] = [];

    for (const size of sizes) {
      const built = performance.now();
      const added: AssetRecord[] = [];
      while (assets.length + added.length < size) {
        const when = new Date(start + Math.floor(random() * span)).toISOString();
        added.push(
          assetRecord(user.userId, {
            id: randomUUID(),
            deviceAssetId: `bench-${assets.length + added.length}`,
            deviceId: 'bench',
            type: random() < 0.1 ? 'VIDEO' : 'IMAGE',
            at: when,
            isFavorite: random() < 0.05,
            thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
            exif: cameraExif(when),
          }),
        );
      }
      assets.push(...added);
      // As uploads leave them: each asset with its change id and change partition (the write builders' stamp).
      await putItems(
        db,
        tableName,
        added.flatMap((asset) => [stampPut(assetItem(asset)), checksumItem(user.userId, asset.checksum, asset.id)]),
      );
      const buildSeconds = ((performance.now() - built) / 1000).toFixed(0);

      // A first sync: a new session, no checkpoint.
      const session = await sdk.login({ loginCredentialDto: { email: 'sync@immich.cloud', password: 'password' } }, { baseUrl });
      global.gc?.();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }, 5);
      meter.items = 0;
      meter.capacity = 0;
      const t = performance.now();
      const first = await stream(baseUrl, session.accessToken);
      const seconds = (performance.now() - t) / 1000;
      clearInterval(sampler);
      const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
      rows.push([
        size.toLocaleString('en'),
        'first sync',
        first.lines.toLocaleString('en'),
        meter.items.toLocaleString('en'),
        meter.capacity.toFixed(0),
        mb(first.bytes),
        mb(first.wireBytes),
        Math.round(first.bytes / size),
        seconds.toFixed(2),
        mb(peak - baseline),
      ]);
      await sdk.sendSyncAck(
        { syncAckSetDto: { acks: [...first.lastAcks.values()] } },
        { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } },
      );

      // Ten changes, then the same session syncs again.
      for (const asset of assets.slice(0, 10)) {
        asset.isFavorite = !asset.isFavorite;
        await sdk.updateAsset({ id: asset.id, updateAssetDto: { isFavorite: asset.isFavorite } }, auth);
      }
      meter.items = 0;
      meter.capacity = 0;
      const t2 = performance.now();
      const next = await stream(baseUrl, session.accessToken);
      const seconds2 = (performance.now() - t2) / 1000;
      rows.push([
        size.toLocaleString('en'),
        'after 10 changes',
        next.lines.toLocaleString('en'),
        meter.items.toLocaleString('en'),
        meter.capacity.toFixed(1),
        mb(next.bytes),
        mb(next.wireBytes),
        '',
        seconds2.toFixed(2),
        '',
      ]);
      rows.push([size.toLocaleString('en'), `(built in ${buildSeconds} s)`, '', '', '', '', '', '', '', '']);
    }
    return [
      'One user, the mobile app 3.x\'s request (every type it asks for) over HTTP from the local server on DynamoDB Local, gzip as the app asks. "Lines" are the JSON lines (an asset is two: AssetV2 and AssetExifV1, plus the user, the completion); "items read" and "RCU" are DynamoDB\'s for the request (authentication and the one-time checks included); "MB" is the stream as decompressed, "wire MB" what was sent; "B/asset" the decompressed bytes per asset; "peak heap" the server\'s heap above what it held before (rows are written as read, so it stays flat however large the library). Deployed, Lambda streams the first 6 MB of an answer at full speed and the rest at 2 MB/s (docs/deployment.md, "The sync stream"): the wire size is what that applies to.',
      '',
      table(['library', 'sync', 'lines', 'items read', 'RCU', 'MB', 'wire MB', 'B/asset', 'seconds', 'peak heap MB'], rows),
    ].join('\n');
  } finally {
    await stack.stop();
  }
};

// Handlers read TABLE_NAME and the endpoint when first imported: this section runs in its own process.
if (import.meta.main) process.stdout.write(await measure());

export const syncSection: Section = { name: 'sync', run: ownProcess(import.meta.url) };
