/**
 * `npm run bench -- albums-scale`: what GET /albums and a sync that finds nothing read for a user
 * with 10 and with 200 albums of 10 and of 500 entries (docs/benchmarks.md, "Albums at library
 * scale"). The library is written as items (the asset, album and entry builders' own items, as
 * test/bench/scale/generate.ts writes them), so it is also a table written before albums kept
 * their summaries: the first GET /albums computes them. Items read and read units come from every
 * DynamoDB call of the server (test/bench/table-io.ts), as test/bench/scale.ts measures. Then the
 * first sync of a user with 500 albums of 200 entries (ALBUMS_FIRST_SYNC): its Queries and the
 * server's peak heap, for the album runs' memory (shared/db/sync.repository.ts, `mergeInOrder`).
 * ALBUMS_SCALE_SHAPES and ALBUMS_FIRST_SYNC (`<albums>x<entries>`, comma-separated; '' for none)
 * choose the shapes.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { assetRecord } from '../support/records.ts';
import { startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { median, table } from './stats.ts';
import { ack, stream } from './sync.ts';
import { meterReads, putItems } from './table-io.ts';

/** `albums x entries` each, comma-separated (ALBUMS_SCALE_SHAPES, ALBUMS_FIRST_SYNC: '' for none). */
const shapesOf = (text: string): [albums: number, entries: number][] =>
  text
    .split(',')
    .filter(Boolean)
    .map((shape) => {
      const [albums = 0, entries = 0] = shape.split('x').map(Number);
      return [albums, entries];
    });
const shapes = shapesOf(process.env.ALBUMS_SCALE_SHAPES ?? '10x10,10x500,200x10,200x500');
/** The first sync of a user with many albums (the album runs' memory: shared/db/sync.repository.ts, `mergeInOrder`). */
const firstSyncShapes = shapesOf(process.env.ALBUMS_FIRST_SYNC ?? '500x200');

const count = (n: number) => n.toLocaleString('en');

const main = async (): Promise<string> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName, adminAuth } = stack;
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk-v3');
  const { assetItem, checksumItem } = await import('#shared/db/items/asset.ts');
  const albumWrites = await import('#shared/db/items/album-writes.ts');
  const { counterItemsOf } = await import('#shared/db/items/bucket.ts');
  const { stampPut } = await import('#shared/db/changes.ts');
  const putItemOf = (write: { item: { Put?: { Item?: Record<string, unknown> } } }) => write.item.Put?.Item as Record<string, unknown>;
  const meter = meterReads(db);
  // DynamoDB calls too: a Query that finds nothing reads no item but is a round trip (and half a read unit deployed).
  const calls = { count: 0, queries: 0 };
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.count++;
      if (context.commandName === 'QueryCommand') calls.queries++;
      return next(args);
    },
    { step: 'initialize', name: 'albums-bench-calls' },
  );
  const reset = () => {
    meter.items = 0;
    meter.capacity = 0;
    calls.count = 0;
    calls.queries = 0;
  };
  /** A user with `albumCount` albums, each holding every one of their `entries` photos, written as items. */
  const library = async (name: string, albumCount: number, entries: number) => {
    const email = `${name}@immich.cloud`;
    const user = await sdk.createUserAdmin(
      { userAdminCreateDto: { email, password: 'password', name, shouldChangePassword: false } },
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

    return { auth, token, assets, albums, userId: user.id };
  };
  const rows: (string | number)[][] = [];
  const firstRows: (string | number)[][] = [];
  try {
    for (const [index, [albumCount, entries]] of shapes.entries()) {
      const { auth, token, assets, albums } = await library(`albums${index}`, albumCount, entries);

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
      // Acked, and the next: the first quiet sync read the albums (it learnt the user's album sync marker), this one need not.
      await ack(sdk, auth, nothing.acks);
      reset();
      const again = await stream(baseUrl, token);
      const quietRead = { items: meter.items, rcu: meter.capacity, calls: calls.count };
      if (again.lines > 2) throw new Error(`a second sync after no change sent ${again.lines} lines`);

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
        `${count(quietRead.calls)} / ${count(quietRead.items)} / ${quietRead.rcu.toFixed(1)}`,
      ]);
      process.stderr.write(`[albums-scale] ${rows.at(-1)?.join(' | ')}\n`);
    }
    for (const [index, [albumCount, entries]] of firstSyncShapes.entries()) {
      const { token } = await library(`first${index}`, albumCount, entries);
      // The server's heap above what it held before, sampled through the app's first sync (the client discards each line).
      global.gc?.();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }, 5);
      reset();
      const t = performance.now();
      let first: Awaited<ReturnType<typeof stream>>;
      try {
        first = await stream(baseUrl, token);
      } finally {
        clearInterval(sampler);
      }
      const ms = performance.now() - t;
      const sent = first.types.get('AlbumToAssetV1') ?? 0;
      if (sent !== albumCount * entries)
        throw new Error(`the first sync sent ${sent} AlbumToAssetV1 lines, ${albumCount * entries} entries written`);
      firstRows.push([
        count(albumCount),
        count(entries),
        count(first.lines),
        count(calls.queries),
        count(meter.items),
        meter.capacity.toFixed(1),
        ((peak - baseline) / 1048576).toFixed(0),
        (ms / 1000).toFixed(1),
      ]);
      process.stderr.write(`[albums-scale first sync] ${firstRows.at(-1)?.join(' | ')}\n`);
    }
  } finally {
    await stack.stop();
  }
  return [
    'One user, their albums written as items (a table from before album summaries: the first GET /albums computes and keeps them); every album holds the same photos (one photo in every album), 2% of them trashed and 3% archived. "GET /albums": DynamoDB calls, items read and read units (RCU) of the last of 3 calls after the first, and their median time on DynamoDB Local; "first call" the first one\'s; "after a change" the call after a photo left one album. "Sync, nothing new": the 3.x app\'s POST /sync/stream (every type it asks for) after its first sync was acked; "the next" the sync after that one was acked (the first learnt the user\'s album sync marker: docs/data-model.md, "Album summaries").',
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
        'the next (calls / items / RCU)',
      ],
      rows,
    ),
    '',
    'The 3.x app\'s first sync (every type it asks for) of a user whose albums each hold every one of their photos, written album after album (each album\'s entries together in change order, as an album made with its photos): "queries" the DynamoDB Query calls of the request, "items" and "RCU" what it read, "peak heap" the server\'s heap above what it held before (sampled every 5 ms; the client discards each line).',
    '',
    table(['albums', 'entries each', 'lines', 'queries', 'items', 'RCU', 'peak heap MB', 'seconds'], firstRows),
  ].join('\n');
};

if (import.meta.main) process.stdout.write(await main());

export const albumsScaleSection: Section = {
  name: 'albums-scale',
  // With --expose-gc: the first sync's peak heap is measured from a collected heap.
  run: async () =>
    execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent' },
      maxBuffer: 1 << 24,
    }),
};
