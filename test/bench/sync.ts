import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { AppStore, applyLine } from '../support/app-store.ts';
import { appTypes } from '../support/app-sync-types.ts';
import { startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import { table } from './stats.ts';
import { buildFamily, type Family } from './sync-library.ts';
import { meterReads } from './table-io.ts';

/**
 * The mobile app's sync stream at library scale (docs/immich-compatibility.md, "The sync stream"),
 * on a family's library (./sync-library.ts): the measured user with 1k, 10k or 50k asset items,
 * a partner sharing their library with them, an album member, a user deleted mid-way. Each size
 * is built and measured in a process of its own (a fresh DynamoDB Local), over HTTP from the
 * local server, gzip-compressed as the app asks for it: the first sync of a new session, then
 * the same session after 10 changes, after the admin deletes a user, after the member shares an
 * older album with them (a backfill), after 1,000 changes. Items
 * read and RCU are DynamoDB's for the request; the peak is the server process's heap above what it
 * held before (the measured client discards each line). Every stream must answer 200 and end with
 * SyncCompleteV1, else the bench fails: the app treats anything else as a failed sync. A second
 * session syncs the same steps as the app does, into the app's tables with their foreign keys
 * (test/support/app-store.ts), unmeasured: a line before what it refers to fails the bench too.
 */
const sizes = (process.env.SYNC_BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);

type Opts = { baseUrl: string; headers: Record<string, string> };

export interface StreamStats {
  lines: number;
  wireBytes: number;
  bytes: number;
  /** Lines by type, in the order the types first came. */
  types: Map<string, number>;
  /** What the app acks: the last line of each run of one type, as test/support/sync-client.ts's app does. */
  acks: string[];
  /** Whether it ended with SyncCompleteV1 (else it ended cleanly before its deadline: the app acks and syncs again). */
  complete: boolean;
}

/**
 * POST /sync/stream with gzip, counting what crosses the wire and what it decompresses to, line by
 * line; `onRun` sees each run of one type as the app handles it (whole batches of 5,000 lines, or
 * what is left at the stream's end). Rejects unless the answer is 200 and ends with SyncCompleteV1,
 * or, with `cut: true`, ends cleanly after a whole line (a stream its deadline ended: `complete` false).
 */
export const stream = (
  baseUrl: string,
  token: string,
  onRun?: (lines: { type: string; data: unknown }[]) => void,
  options: { cut?: boolean } = {},
): Promise<StreamStats> =>
  new Promise((resolve, reject) => {
    let failed = false;
    const req = request(
      new URL(`${baseUrl}/sync/stream`),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${token}` },
      },
      (res) => {
        const stats: StreamStats = { lines: 0, wireBytes: 0, bytes: 0, types: new Map(), acks: [], complete: false };
        const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
        if (res.statusCode !== 200) {
          let text = '';
          body.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          body.on('end', () => reject(new Error(`sync stream answered ${res.statusCode}: ${text}`)));
          return;
        }
        let rest = '';
        let last = '';
        let run: { type: string; data: unknown; ack: string }[] = [];
        let batch = 0;
        const flush = () => {
          const tail = run.at(-1);
          if (!tail) return;
          onRun?.(run);
          stats.acks.push(tail.ack);
          run = [];
        };
        const read = (chunk: Buffer) => {
          stats.bytes += chunk.length;
          const parts = (rest + chunk.toString('utf8')).split('\n');
          rest = parts.pop() ?? '';
          for (const part of parts) {
            stats.lines++;
            const line = JSON.parse(part) as { type: string; data: unknown; ack: string };
            stats.types.set(line.type, (stats.types.get(line.type) ?? 0) + 1);
            if (run.length > 0 && run[0]?.type !== line.type) flush();
            run.push(onRun ? line : { type: line.type, data: null, ack: line.ack });
            if (++batch === 5000) {
              flush();
              batch = 0;
            }
            last = line.type;
          }
        };
        // A line that is no JSON, or a run the app's tables refuse: a failed sync.
        const fail = (error: unknown) => {
          if (failed) return;
          failed = true;
          req.destroy();
          reject(error);
        };
        res.on('data', (chunk: Buffer) => {
          stats.wireBytes += chunk.length;
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new Error(`sync stream cut short after ${stats.lines} lines`)));
        body.on('data', (chunk: Buffer) => {
          if (failed) return;
          try {
            read(chunk);
          } catch (error) {
            fail(error);
          }
        });
        body.on('end', () => {
          if (failed) return;
          stats.complete = rest === '' && last === 'SyncCompleteV1';
          if (rest !== '' || (!stats.complete && !options.cut))
            return fail(new Error(`sync stream cut short after ${stats.lines} lines (the last ${last || 'none'}, not SyncCompleteV1)`));
          try {
            flush();
            resolve(stats);
          } catch (error) {
            fail(error);
          }
        });
        body.on('error', fail);
      },
    );
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
    req.end(JSON.stringify({ types: appTypes }));
  });

/** Acks as the app does, in order (at most 1,000 a call, the endpoint's limit). */
export const ack = async (sdk: typeof import('@immich/sdk-v3'), auth: Opts, acks: readonly string[]) => {
  for (let i = 0; i < acks.length; i += 1000) await sdk.sendSyncAck({ syncAckSetDto: { acks: acks.slice(i, i + 1000) } }, auth);
};

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const count = (n: number) => n.toLocaleString('en');
const typesOf = (stats: StreamStats) =>
  [...stats.types]
    .filter(([type]) => type !== 'SyncCompleteV1')
    .map(([type, n]) => `${type} ${count(n)}`)
    .join(', ');

interface SizeResult {
  rows: (string | number)[][];
  firstTypes: [string, number][];
  shape: string;
}

/** One size: build the family, then its syncs. */
const measureSize = async (size: number): Promise<SizeResult> => {
  const stack = await startLocalStack();
  const { baseUrl, tableName, adminAuth } = stack;
  const { db } = await import('#shared/db/client.ts');
  const { queryAll } = await import('#shared/db/query.ts');
  const partitions = await import('#shared/db/partitions.ts');
  const sdk = await import('@immich/sdk-v3');
  const meter = meterReads(db);
  const label = count(size);
  const rows: (string | number)[][] = [];
  try {
    const built = performance.now();
    const family: Family = await buildFamily(size, { sdk, db, tableName, baseUrl, adminAuth });
    const buildSeconds = (performance.now() - built) / 1000;
    const { user, libraries, albums } = family;

    // Album entries as the API wrote them: each with its change id in its album's change partition.
    for (const album of albums) {
      const entries = await queryAll(partitions.albumAssets(album.id));
      const unstamped = entries.filter((entry) => typeof entry.updateId !== 'string' || entry.gsi3pk !== `CHANGES#ALBUM#${album.id}`);
      if (entries.length !== album.assetIds.length || unstamped.length > 0)
        throw new Error(
          `album ${album.name}: ${entries.length} entries for ${album.assetIds.length} added, ${unstamped.length} without a change id`,
        );
    }

    const login = async () => {
      const session = await sdk.login({ loginCredentialDto: { email: user.email, password: 'password' } }, { baseUrl });
      return { token: session.accessToken, auth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } } };
    };
    // The measured session discards what it reads; the app's session applies it to the app's tables.
    const measured = await login();
    const app = await login();
    const store = new AppStore();
    const applyRun = (lines: { type: string; data: unknown }[]) =>
      store.transaction(() => {
        for (const line of lines) applyLine(store, line.type, line.data);
      });

    const sync = async (name: string, options: { heap?: boolean; perAsset?: boolean } = {}) => {
      global.gc?.();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }, 5);
      meter.items = 0;
      meter.capacity = 0;
      const t = performance.now();
      let stats: StreamStats;
      try {
        stats = await stream(baseUrl, measured.token);
      } finally {
        clearInterval(sampler);
      }
      const seconds = (performance.now() - t) / 1000;
      const items = meter.items;
      const capacity = meter.capacity;
      await ack(sdk, measured.auth, stats.acks);
      // The app's session: the same step, its lines applied run by run (unmeasured).
      const applied = await stream(baseUrl, app.token, applyRun);
      await ack(sdk, app.auth, applied.acks);
      if (applied.lines !== stats.lines)
        throw new Error(`${name}: the app's session read ${applied.lines} lines, the measured one ${stats.lines}`);
      rows.push([
        label,
        name,
        count(stats.lines),
        count(items),
        capacity.toFixed(options.heap ? 0 : 1),
        mb(stats.bytes),
        mb(stats.wireBytes),
        options.perAsset ? Math.round(stats.bytes / size) : '',
        seconds.toFixed(2),
        options.heap ? mb(peak - baseline) : '',
        options.heap ? '' : typesOf(stats),
      ]);
      return stats;
    };

    // The first sync: a new session, no checkpoint. Its asset lines must be the whole library.
    const first = await sync('first sync', { heap: true, perAsset: true });
    const expect = (type: string, n: number) => {
      if ((first.types.get(type) ?? 0) !== n) throw new Error(`first sync: ${first.types.get(type) ?? 0} ${type} lines, ${n} expected`);
    };
    expect('AssetV2', libraries.user.assets.length);
    expect('PartnerAssetV2', libraries.partner.assets.length);
    expect(
      'AlbumToAssetV1',
      albums.reduce((n, album) => n + album.assetIds.length, 0),
    );
    expect('AssetFaceV2', libraries.user.faces.length);
    expect('PersonV1', libraries.user.people.length);

    // Ten changes (favourites), then the same session syncs again.
    const own = libraries.user.albumable.filter((asset) => asset.deletedAt === null);
    for (const asset of own.slice(0, 10)) {
      asset.isFavorite = !asset.isFavorite;
      await sdk.updateAsset({ id: asset.id, updateAssetDto: { isFavorite: asset.isFavorite } }, user.auth);
    }
    await sync('after 10 changes');

    // The admin deletes the leaving user (DELETE /admin/users/:id): a member of "Wedding", owner of "Old photos".
    await sdk.deleteUserAdmin({ id: family.leaving.id, userAdminDeleteDto: {} }, adminAuth);
    await sync('after a user is deleted');

    // The member shares an older album with the user: its entries, older than the session's
    // checkpoints, come as the album's backfill.
    await sdk.addUsersToAlbum(
      { id: family.later.id, addUsersDto: { albumUsers: [{ userId: user.id, role: sdk.AlbumUserRole.Viewer }] } },
      family.member.auth,
    );
    albums.push(family.later);
    const shared = await sync('after an album is shared');
    if ((shared.types.get('AlbumToAssetBackfillV1') ?? 0) !== family.later.assetIds.length)
      throw new Error(
        `album shared: ${shared.types.get('AlbumToAssetBackfillV1') ?? 0} entries backfilled, ${family.later.assetIds.length} expected (${typesOf(shared)})`,
      );

    // 1,000 changes: the member favourites 50 of their photos in albums the user has (50 at most),
    // the partner 50 of theirs; the user archives 200, trashes 100, adds 150 to "Best of" and
    // favourites the rest.
    const everywhere = new Set(albums.flatMap((album) => album.assetIds));
    const memberChanged = libraries.member.albumable
      .filter((asset) => everywhere.has(asset.id) && !asset.isFavorite && asset.deletedAt === null)
      .slice(0, 50)
      .map((asset) => asset.id);
    const partnerChanged = libraries.partner.albumable
      .filter((asset) => !asset.isFavorite && asset.deletedAt === null)
      .slice(0, 50)
      .map((asset) => asset.id);
    const rest = own.slice(10).filter((asset) => asset.visibility === 'timeline' && !asset.isFavorite);
    const archived = rest.slice(0, 200).map((asset) => asset.id);
    const trashed = rest.slice(200, 300).map((asset) => asset.id);
    const bestOf = albums.find((album) => album.name === 'Best of') as Family['albums'][number];
    const added = own
      .filter((asset) => !bestOf.assetIds.includes(asset.id) && !trashed.includes(asset.id))
      .slice(0, 150)
      .map((asset) => asset.id);
    const favourites = rest.slice(300, 300 + 1000 - 450 - memberChanged.length - partnerChanged.length).map((asset) => asset.id);
    const bulk = async (auth: Opts, ids: readonly string[], change: Omit<import('@immich/sdk-v3').AssetBulkUpdateDto, 'ids'>) => {
      for (let i = 0; i < ids.length; i += 100)
        await sdk.updateAssets({ assetBulkUpdateDto: { ids: ids.slice(i, i + 100), ...change } }, auth);
    };
    await bulk(family.member.auth, memberChanged, { isFavorite: true });
    await bulk(family.partner.auth, partnerChanged, { isFavorite: true });
    await bulk(user.auth, favourites, { isFavorite: true });
    await bulk(user.auth, archived, { visibility: sdk.AssetVisibility.Archive });
    await sdk.deleteAssets({ assetBulkDeleteDto: { ids: trashed } }, user.auth);
    const results = await sdk.addAssetsToAlbum({ id: bestOf.id, bulkIdsDto: { ids: added } }, user.auth);
    if (results.some((result) => !result.success)) throw new Error('"Best of": an asset was refused');
    const changes = memberChanged.length + partnerChanged.length + favourites.length + archived.length + trashed.length + added.length;
    await sync(`after ${count(changes)} changes`);
    rows.push([
      label,
      `(built in ${buildSeconds.toFixed(0)} s: items ${family.seconds.items.toFixed(0)} s, API ${family.seconds.api.toFixed(0)} s)`,
      ...Array.from({ length: 9 }, () => ''),
    ]);
    const later = family.later.assetIds.length;
    const entries = albums.reduce((n, album) => n + album.assetIds.length, 0) - later;
    const stacks = (n: number) => `${n} stack${n === 1 ? '' : 's'}`;
    const shape = [
      `${count(size)}: the user ${count(libraries.user.assets.length)} asset items`,
      `${count(libraries.user.faces.length)} faces of ${libraries.user.people.length} people`,
      stacks(family.stacks.user),
      `the partner ${count(libraries.partner.assets.length)} (${stacks(family.stacks.partner)})`,
      `the member ${count(libraries.member.assets.length)}`,
      `the leaving user ${count(libraries.leaving.assets.length)}`,
      `${albums.length - 1} albums with ${count(entries)} entries at the first sync, "Holiday" with ${count(later)} shared later`,
    ].join(', ');
    return { rows, firstTypes: [...first.types], shape };
  } finally {
    await stack.stop();
  }
};

/** Each size in a process of its own: a fresh DynamoDB Local, and handlers that read TABLE_NAME at import. */
const run = async (): Promise<string> => {
  const results: SizeResult[] = [];
  for (const size of sizes) {
    const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent', SYNC_BENCH_SIZE: String(size) },
      maxBuffer: 1 << 24,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results.push(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as SizeResult);
  }
  const types = [...new Set(results.flatMap((result) => result.firstTypes.map(([type]) => type)))];
  return [
    'A family\'s library: the measured user (the size) with 10% videos, 5% favourites, 2% trashed, 3% archived, 4% of photos live photos (two items each), 85% with a position and place names, faces of a few dozen people on 15% of photos, about 1% of assets in stacks; about 20 albums of theirs, each photo in 0 to 3 (favourites in "Favourites", a summer\'s in "Trip", so some in both), 5 shared with a member who adds photos of their own, 1 shared with a user who adds theirs; 2 albums of the member\'s and 1 of that user\'s shared with them; a partner sharing their library (a fifth of the size), in the timeline; the member a twentieth, the other user a fiftieth. The mobile app 3.x\'s request (every type it asks for) over HTTP from the local server on DynamoDB Local, gzip as the app asks; each stream answered 200 and ended with SyncCompleteV1, and a second session applied the same steps to the app\'s tables with their foreign keys. "Items read" and "RCU" are DynamoDB\'s for the request (authentication and the one-time checks included); "MB" is the stream as decompressed, "wire MB" what was sent; "B/asset" the decompressed bytes per asset item of the user; "peak heap" the server\'s heap above what it held before. Deployed, Lambda streams the first 6 MB of an answer at full speed and the rest at 2 MB/s (docs/deployment.md, "The sync stream"): the wire size is what that applies to. After a user is deleted: the admin\'s soft delete (DELETE /admin/users/:id) of the user in "Wedding" who owns "Old photos"; after an album is shared: the member adds the user to an older album of theirs, whose entries come as its backfill; the 1,000 changes: the member favourites 50 of their photos in the user\'s albums (fewer at 1k), the partner 50 of theirs, the user archives 200, trashes 100, adds 150 to an album and favourites the rest.',
    '',
    table(
      ['library', 'sync', 'lines', 'items read', 'RCU', 'MB', 'wire MB', 'B/asset', 'seconds', 'peak heap MB', 'what came'],
      results.flatMap((result) => result.rows),
    ),
    '',
    `The libraries: ${results.map((result) => result.shape).join('; ')}.`,
    '',
    "The first sync's lines by type:",
    '',
    table(
      ['type', ...sizes.map(count)],
      types.map((type) => [type, ...results.map((result) => count(new Map(result.firstTypes).get(type) ?? 0))]),
    ),
  ].join('\n');
};

if (import.meta.main) {
  const size = Number(process.env.SYNC_BENCH_SIZE);
  if (!size) throw new Error('SYNC_BENCH_SIZE: the size this process measures');
  process.stdout.write(`\n${JSON.stringify(await measureSize(size))}\n`);
}

export const syncSection: Section = { name: 'sync', run };
