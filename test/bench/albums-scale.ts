/**
 * `npm run bench -- albums-scale`: what GET /albums and a sync that finds nothing read for a user
 * with 10 and with 200 albums of 10 and of 500 entries (docs/benchmarks.md, "Albums at library
 * scale"). The library is written as items (the asset, album and entry builders' own items, as
 * test/bench/scale/generate.ts writes them), so it is also a table written before albums kept
 * their summaries: the first GET /albums computes them. Items read and read units come from every
 * DynamoDB call of the server (test/bench/table-io.ts), as test/bench/scale.ts measures.
 */
import { randomUUID } from 'node:crypto';
import { assetRecord } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { median, table } from './stats.ts';
import { ack, stream } from './sync.ts';
import { meterReads, putItems } from './table-io.ts';

const shapes: [albums: number, entries: number][] = [
  [10, 10],
  [10, 500],
  [200, 10],
  [200, 500],
];

const count = (n: number) => n.toLocaleString('en');

const main = async (): Promise<string> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName, adminAuth } = stack;
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk-v3');
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const { albumWrites } = await import('#shared/db/items/album.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const putItemOf = (write: { item: { Put?: { Item?: Record<string, unknown> } } }) => write.item.Put?.Item as Record<string, unknown>;
  const meter = meterReads(db);
  // DynamoDB calls too: a Query that finds nothing reads no item but is a round trip (and half a read unit deployed).
  const calls = { count: 0 };
  db.middlewareStack.add(
    (next) => async (args) => {
      calls.count++;
      return next(args);
    },
    { step: 'initialize', name: 'albums-bench-calls' },
  );
  const reset = () => {
    meter.items = 0;
    meter.capacity = 0;
    calls.count = 0;
  };
  const rows: (string | number)[][] = [];
  try {
    for (const [index, [albumCount, entries]] of shapes.entries()) {
      const email = `albums${index}@immich.cloud`;
      const user = await sdk.createUserAdmin(
        { userAdminCreateDto: { email, password: 'password', name: `Albums ${index}`, shouldChangePassword: false } },
        adminAuth,
      );
      const { accessToken: token } = await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl });
      const auth = { baseUrl, headers: { Authorization: `Bearer ${token}` } };
      // The user's photos over two years, a few trashed or archived: each in every album (entries ≤ photos).
      const assets = Array.from({ length: entries }, (_, n) =>
        assetRecord(user.id, {
          at: new Date(Date.UTC(2023, 0, 1) + n * 86_400_000 * 1.4).toISOString(),
          deletedAt: n % 50 === 7 ? new Date().toISOString() : null,
          visibility: n % 30 === 3 ? 'archive' : 'timeline',
          albumCount,
        }),
      );
      const now = new Date().toISOString();
      const albums = Array.from({ length: albumCount }, (_, n) => ({
        id: randomUUID(),
        ownerId: user.id,
        albumName: `Album ${n}`,
        description: '',
        albumThumbnailAssetId: assets[0]?.id ?? null,
        createdAt: now,
        updatedAt: now,
        isActivityEnabled: true,
        order: 'desc' as const,
        sharedLinkCount: 0,
        sharedUserIds: [],
        userRoles: {},
      }));
      await putItems(db, tableName, [
        ...assets.flatMap((asset) => [stampPut(assetItem(asset)), checksumItem(asset.ownerId, asset.checksum, asset.id)]),
        ...counterItemsOf(user.id, assets),
        ...albums.map((album) => putItemOf(albumWrites.create(album))),
        ...albums.flatMap((album) => assets.map((asset) => putItemOf(albumWrites.join(album.id, asset, now)[0] as never))),
      ]);

      const getAlbums = async () => {
        reset();
        const t = performance.now();
        const listed = await sdk.getAllAlbums({}, auth);
        const ms = performance.now() - t;
        if (listed.length !== albumCount) throw new Error(`GET /albums listed ${listed.length} albums, ${albumCount} written`);
        const live = assets.filter((asset) => asset.deletedAt === null).length;
        if (listed.some((album) => album.assetCount !== live)) throw new Error(`GET /albums: an album's assetCount is not ${live}`);
        return { items: meter.items, rcu: meter.capacity, calls: calls.count, ms };
      };
      const first = await getAlbums();
      const steady = [await getAlbums(), await getAlbums(), await getAlbums()];
      const last = steady.at(-1) as typeof first;

      // The app's first sync, acked; then a sync that finds nothing.
      const firstSync = await stream(baseUrl, token);
      await ack(sdk, auth, firstSync.acks);
      reset();
      const t = performance.now();
      const nothing = await stream(baseUrl, token);
      const syncMs = performance.now() - t;
      const syncRead = { items: meter.items, rcu: meter.capacity, calls: calls.count };
      if (nothing.lines > 2) throw new Error(`a sync after no change sent ${nothing.lines} lines`);

      // One album changes (a photo leaves it): the next list.
      await sdk.removeAssetFromAlbum({ id: albums[0]?.id as string, bulkIdsDto: { ids: [assets[1]?.id as string] } }, auth);
      reset();
      const changed = await sdk.getAllAlbums({}, auth);
      const afterChange = { items: meter.items, rcu: meter.capacity, calls: calls.count };
      if (changed.length !== albumCount) throw new Error('GET /albums after a change lost an album');

      rows.push([
        count(albumCount),
        count(entries),
        count(albumCount * entries),
        `${count(first.calls)} / ${count(first.items)} / ${first.rcu.toFixed(1)}`,
        count(last.calls),
        count(last.items),
        last.rcu.toFixed(1),
        median(steady.map((s) => s.ms)).toFixed(0),
        `${count(afterChange.calls)} / ${count(afterChange.items)} / ${afterChange.rcu.toFixed(1)}`,
        count(syncRead.calls),
        count(syncRead.items),
        syncRead.rcu.toFixed(1),
        syncMs.toFixed(0),
      ]);
      process.stderr.write(`[albums-scale] ${rows.at(-1)?.join(' | ')}\n`);
    }
  } finally {
    await stack.stop();
  }
  return [
    'One user, their albums written as items (a table from before album summaries: the first GET /albums computes and keeps them); every album holds the same photos (one photo in every album), 2% of them trashed and 3% archived. "GET /albums": DynamoDB calls, items read and read units (RCU) of the last of 3 calls after the first, and their median time on DynamoDB Local; "first call" the first one\'s; "after a change" the call after a photo left one album. "Sync, nothing new": the 3.x app\'s POST /sync/stream (every type it asks for) after its first sync was acked.',
    '',
    table(
      [
        'albums',
        'entries each',
        'entries',
        'GET /albums first call (calls / items / RCU)',
        'GET /albums calls',
        'items',
        'RCU',
        'ms',
        'after a change (calls / items / RCU)',
        'sync, nothing new: calls',
        'items',
        'RCU',
        'ms',
      ],
      rows,
    ),
  ].join('\n');
};

if (import.meta.main) process.stdout.write(await main());

export const albumsScaleSection: Section = { name: 'albums-scale', run: ownProcess(import.meta.url) };
