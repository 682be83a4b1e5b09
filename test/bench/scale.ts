import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { makeJpeg } from '../support/photos.ts';
import { startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import type { ScaleLibrary, ScaleUser } from './scale/generate.ts';
import { median, percentile, table } from './stats.ts';
import { ack, type StreamStats, stream } from './sync.ts';
import { meterReads } from './table-io.ts';

/**
 * Large libraries (issue 55): a family's library of N assets (./scale/generate.ts) written
 * straight into DynamoDB Local, then measured through the local server over HTTP as the 3.x
 * mobile app and the web app call it: first syncs, incremental syncs, the timeline, search,
 * people, the map, uploads. Each size runs in a process of its own (a fresh DynamoDB Local).
 *   npm run bench -- scale            100k
 *   npm run bench -- scale 10k 100k   the sizes given (a number, or with k)
 * Items read and RCU are DynamoDB's for the request (ReturnConsumedCapacity on the functions'
 * client); bytes are the answer's body as sent (JSON), and its gzip size.
 */

export const parseSizes = (args: readonly string[]): number[] =>
  args
    .filter((arg) => /^\d+k?$/i.test(arg))
    .map((arg) => (arg.toLowerCase().endsWith('k') ? Number(arg.slice(0, -1)) * 1000 : Number(arg)));

const count = (n: number) => Math.round(n).toLocaleString('en');
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(2);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
/** Lambda's largest answer (infra/local/deployed/api-gateway.ts). */
const lambdaMax = 6_291_556;

interface SizeResult {
  size: number;
  shape: string;
  generation: string[];
  checks: string[];
  syncRows: (string | number)[][];
  readRows: (string | number)[][];
  uploadRows: (string | number)[][];
}

const measureSize = async (size: number): Promise<SizeResult> => {
  const work = mkdtempSync(join(tmpdir(), 'immich-bench-scale-'));
  const dbPath = process.env.SCALE_DB_PATH ? join(process.env.SCALE_DB_PATH, `scale-${size}-${Date.now()}`) : undefined;
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') }, dbPath ? { dbPath } : {});
  const { baseUrl, tableName, adminAuth } = stack;
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk-v3');
  const { generate } = await import('./scale/generate.ts');
  const meter = meterReads(db);
  const log = (line: string) => process.stderr.write(`[scale ${count(size)}] ${line}\n`);
  try {
    const t0 = performance.now();
    const lib: ScaleLibrary = await generate(size, { sdk, db, tableName, baseUrl, adminAuth }, log);
    const generateSeconds = (performance.now() - t0) / 1000;
    const users = lib.users;
    const [a] = users as [ScaleUser];
    const assetsTotal = users.reduce((n, u) => n + u.assets.length, 0);
    const facesTotal = users.reduce((n, u) => n + u.faces.length, 0);
    const peopleTotal = users.reduce((n, u) => n + u.people.length, 0);
    const entries = lib.albums.reduce((n, album) => n + album.assetIds.length, 0);
    const shape = `${count(assetsTotal)} asset items (${users.map((u) => count(u.assets.length)).join(' / ')}), ${count(facesTotal)} faces of ${count(peopleTotal)} people, ${count(lib.albums.length)} albums with ${count(entries)} entries (${lib.albums.filter((x) => x.shares.length > 0).length} shared), ${lib.stacks} stacks, ${lib.memories} memories, ${count(lib.tagged)} tag entries, 2 partner shares`;
    const generation = [
      `${count(lib.items)} items built in ${lib.seconds.build.toFixed(1)} s and written in ${lib.seconds.items.toFixed(1)} s (${count(lib.items / lib.seconds.items)} items/s); the API part (partners, stacks, memories, tags) ${lib.seconds.api.toFixed(1)} s; in all ${generateSeconds.toFixed(0)} s`,
    ];
    log(generation[0] as string);

    const json = async (token: string, method: string, path: string, body?: unknown) => {
      meter.items = 0;
      meter.capacity = 0;
      const t = performance.now();
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const ms = performance.now() - t;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return {
        ms,
        bytes: Buffer.byteLength(text),
        gzip: gzipSync(text).length,
        items: meter.items,
        rcu: meter.capacity,
        body: JSON.parse(text) as unknown,
      };
    };

    // Checks: the timeline's months equal the generator's counts, for every user.
    const checks: string[] = [];
    for (const user of users) {
      const expected = new Map<string, number>();
      for (const asset of user.assets)
        if (asset.visibility === 'timeline' && asset.deletedAt === null) {
          const month = `${asset.localDateTime.slice(0, 7)}-01`;
          expected.set(month, (expected.get(month) ?? 0) + 1);
        }
      const got = (await json(user.token, 'GET', '/timeline/buckets?visibility=timeline')).body as { timeBucket: string; count: number }[];
      const wrong =
        got.filter((b) => expected.get(b.timeBucket) !== b.count).length +
        [...expected.keys()].filter((m) => !got.some((b) => b.timeBucket === m)).length;
      if (wrong > 0) throw new Error(`${user.name}: ${wrong} timeline months differ from the generator's`);
      checks.push(`${user.name}: ${got.length} timeline months, ${count(got.reduce((n, b) => n + b.count, 0))} assets, as generated`);
    }

    // First sync of the 3.x app for each user, then the first user's incremental syncs.
    const syncRows: (string | number)[][] = [];
    const sync = async (user: ScaleUser, token: string, name: string) => {
      global.gc?.();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      let rss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
        rss = Math.max(rss, process.memoryUsage().rss);
      }, 5);
      meter.items = 0;
      meter.capacity = 0;
      const t = performance.now();
      let stats: StreamStats;
      try {
        stats = await stream(baseUrl, token);
      } finally {
        clearInterval(sampler);
      }
      const seconds = (performance.now() - t) / 1000;
      const row = [
        user.name,
        name,
        count(stats.lines),
        count(meter.items),
        count(meter.capacity),
        mb(stats.bytes),
        mb(stats.wireBytes),
        seconds.toFixed(1),
        mb(peak - baseline),
        mb(rss),
      ];
      syncRows.push(row);
      log(`sync ${row.join(' | ')}`);
      await ack(sdk, { baseUrl, headers: { Authorization: `Bearer ${token}` } }, stats.acks);
      return stats;
    };
    for (const user of users) {
      const first = await sync(user, user.token, 'first sync');
      const own = first.types.get('AssetV2') ?? 0;
      if (own !== user.assets.length) throw new Error(`${user.name}: first sync sent ${own} AssetV2, ${user.assets.length} generated`);
      checks.push(
        `${user.name}'s first sync: ${count(own)} AssetV2 lines (as generated), ${count(first.types.get('PartnerAssetV2') ?? 0)} PartnerAssetV2, ${count(first.types.get('AlbumToAssetV1') ?? 0)} AlbumToAssetV1, ${count(first.types.get('AssetFaceV2') ?? 0)} AssetFaceV2, ended with SyncCompleteV1`,
      );
    }
    const changeable = a.assets.filter((x) => x.visibility === 'timeline' && x.deletedAt === null && !x.isFavorite);
    const favourite = async (ids: readonly string[]) => {
      for (let i = 0; i < ids.length; i += 100)
        await sdk.updateAssets({ assetBulkUpdateDto: { ids: ids.slice(i, i + 100), isFavorite: true } }, a.auth);
    };
    await favourite(changeable.slice(0, 10).map((x) => x.id));
    await sync(a, a.token, 'after 10 changes');
    await favourite(changeable.slice(10, 1010).map((x) => x.id));
    await sync(a, a.token, 'after 1,000 changes');
    if (changeable.length >= 11_010) {
      await favourite(changeable.slice(1010, 11_010).map((x) => x.id));
      await sync(a, a.token, 'after 10,000 changes');
    }
    const noChange = await sync(a, a.token, 'no change');
    if (noChange.lines > 2) checks.push(`a sync after no change sent ${noChange.lines} lines`);

    // Reads, as the first user (with a partner in the timeline), each measured 5 times after a warm-up.
    const readRows: (string | number)[][] = [];
    const measure = async (name: string, call: () => ReturnType<typeof json>, note: (body: unknown) => string = () => '') => {
      const first = await call();
      const times: number[] = [];
      let last = first;
      for (let i = 0; i < 3; i++) {
        last = await call();
        times.push(last.ms);
      }
      // What Lambda could return (6 MB, the body escaped in its JSON result; gzip goes base64, a third more).
      const lambda = last.bytes + 16 * 1024 <= lambdaMax ? '' : (last.gzip * 4) / 3 + 16 * 1024 <= lambdaMax ? 'gzip only' : 'over 6 MB';
      const row = [
        name,
        last.items < 0 ? '–' : count(last.items),
        last.rcu < 0 ? '–' : last.rcu.toFixed(1),
        kb(last.bytes),
        kb(last.gzip),
        median(times).toFixed(0),
        note(last.body),
        lambda,
      ];
      readRows.push(row);
      log(`read ${row.join(' | ')}`);
      return last.body;
    };
    const get = (path: string) => () => json(a.token, 'GET', path);
    const post = (path: string, body: unknown) => () => json(a.token, 'POST', path, body);
    const length = (body: unknown) => `${count((body as unknown[]).length)} items`;
    const buckets = (await measure(
      'GET /timeline/buckets (with partners, stacked)',
      get('/timeline/buckets?visibility=timeline&withPartners=true&withStacked=true'),
      length,
    )) as { timeBucket: string; count: number }[];
    const biggest = [...buckets].sort((x, y) => y.count - x.count)[0] as { timeBucket: string; count: number };
    await measure(
      `GET /timeline/bucket (largest month, ${biggest.count})`,
      get(`/timeline/bucket?visibility=timeline&withPartners=true&withStacked=true&timeBucket=${biggest.timeBucket}`),
      (body) => `${count((body as { id: unknown[] }).id.length)} assets`,
    );
    const newest = buckets[0] as { timeBucket: string };
    // The web's first paint: server config and features, the user, the buckets, the newest month, in parallel as the web does.
    const paint = async () => {
      const t = performance.now();
      const parts = await Promise.all([
        json(a.token, 'GET', '/server/config'),
        json(a.token, 'GET', '/server/features'),
        json(a.token, 'GET', '/users/me'),
        json(a.token, 'GET', '/users/me/preferences'),
        json(a.token, 'GET', '/timeline/buckets?visibility=timeline&withPartners=true&withStacked=true'),
      ]);
      parts.push(
        await json(
          a.token,
          'GET',
          `/timeline/bucket?visibility=timeline&withPartners=true&withStacked=true&timeBucket=${newest.timeBucket}`,
        ),
      );
      // Items and RCU are not told apart for calls in parallel (-1: not shown).
      const sum = (field: 'bytes' | 'gzip') => parts.reduce((n, part) => n + part[field], 0);
      return {
        ...(parts[0] as Awaited<ReturnType<typeof json>>),
        bytes: sum('bytes'),
        gzip: sum('gzip'),
        items: -1,
        rcu: -1,
        ms: performance.now() - t,
      };
    };
    await measure('web first paint (config, features, me, preferences, buckets ∥, then the newest month)', paint);
    const person = [...a.people].sort((x, y) => y.faceCount - x.faceCount)[0];
    const total = (body: unknown) => `${count((body as { assets: { total: number } }).assets.total)} hits`;
    await measure('POST /search/metadata city=Paris (250)', post('/search/metadata', { city: 'Paris', size: 250 }), total);
    await measure(
      'POST /search/metadata make+model (250)',
      post('/search/metadata', { make: 'Apple', model: 'iPhone 13', size: 250 }),
      total,
    );
    await measure(
      'POST /search/metadata one year (250)',
      post('/search/metadata', { takenAfter: '2020-01-01T00:00:00.000Z', takenBefore: '2021-01-01T00:00:00.000Z', size: 250 }),
      total,
    );
    if (person)
      await measure(
        `POST /search/metadata person (${person.faceCount} faces, 250)`,
        post('/search/metadata', { personIds: [person.id], size: 250 }),
        total,
      );
    await measure('GET /search/suggestions?type=country', get('/search/suggestions?type=country'), length);
    await measure('GET /search/suggestions?type=city&country=France', get('/search/suggestions?type=city&country=France'), length);
    await measure('GET /search/suggestions?type=camera-make', get('/search/suggestions?type=camera-make'), length);
    await measure(
      'GET /search/explore',
      get('/search/explore'),
      (body) => `${count((body as { items: unknown[] }[])[0]?.items.length ?? 0)} cities`,
    );
    await measure('GET /search/cities (places page)', get('/search/cities'), length);
    await measure(
      'GET /people',
      get('/people'),
      (body) => `${count((body as { people: unknown[] }).people.length)} of ${count((body as { total: number }).total)}`,
    );
    if (person) {
      await measure(`GET /timeline/buckets?personId (${person.faceCount} faces)`, get(`/timeline/buckets?personId=${person.id}`), length);
      await measure(`GET /people/:id/statistics`, get(`/people/${person.id}/statistics`));
    }
    await measure('GET /map/markers (with partners)', get('/map/markers?withPartners=true'), length);
    await measure('GET /map/markers (own)', get('/map/markers'), length);
    await measure('GET /albums', get('/albums'), length);
    await measure('GET /memories', get('/memories'), length);
    await measure('GET /assets/statistics', get('/assets/statistics'));

    // Uploads: the bulk check of 10,000 checksums (half known), uploads by 8 clients, a duplicate.
    const uploadRows: (string | number)[][] = [];
    const known = a.assets.slice(0, 5000).map((x) => ({ id: x.id, checksum: Buffer.from(x.checksum, 'hex').toString('base64') }));
    const unknown = Array.from({ length: 10_000 - known.length }, (_, i) => ({
      id: `new-${i}`,
      checksum: createHash('sha1').update(`scale-${size}-${i}`).digest('base64'),
    }));
    await measure(
      'POST /assets/bulk-upload-check (10,000: 5,000 known)',
      post('/assets/bulk-upload-check', { assets: [...known, ...unknown] }),
      (body) => {
        const results = (body as { results: { action: string }[] }).results;
        return `${count(results.filter((r) => r.action === 'reject').length)} rejected`;
      },
    );
    let colour = 0;
    let resets = 0;
    const upload = async (data: Buffer) => {
      const form = new FormData();
      const now = new Date().toISOString();
      for (const [name, value] of Object.entries({
        deviceAssetId: `scale-${colour}`,
        deviceId: 'bench',
        fileCreatedAt: now,
        fileModifiedAt: now,
      }))
        form.append(name, value);
      form.append('assetData', new File([new Uint8Array(data)], `scale-${colour}.jpg`));
      const t = performance.now();
      // A kept-alive connection the server closed while idle resets the first request sent on it
      // (before the server read it): sent again once, and counted.
      const send = () => fetch(`${baseUrl}/assets`, { method: 'POST', headers: { authorization: `Bearer ${a.token}` }, body: form });
      const res = await send().catch(() => {
        resets++;
        return send();
      });
      const body = (await res.json()) as { status: string };
      if (res.status >= 300) throw new Error(`POST /assets: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, status: body.status };
    };
    // A failure here keeps what was measured before it (the row says what failed).
    try {
      const photos = Array.from({ length: 160 }, () =>
        makeJpeg({ color: [colour % 256, Math.floor(colour++ / 256) % 256, 9], make: 'Scale', city: 'Paris' }),
      );
      const times: number[] = [];
      const queue = [...photos];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let photo = queue.shift(); photo; photo = queue.shift()) times.push((await upload(photo)).ms);
        }),
      );
      const wall = (performance.now() - started) / 1000;
      uploadRows.push([
        `POST /assets, 8 clients, ${photos.length} photos${resets ? ` (${resets} reset connection${resets > 1 ? 's' : ''} sent again)` : ''}`,
        median(times).toFixed(0),
        percentile(times, 99).toFixed(0),
        `${(photos.length / wall).toFixed(1)}/s`,
      ]);
      const dupTimes: number[] = [];
      for (let i = 0; i < 10; i++) {
        const answer = await upload(photos[i] as Buffer);
        if (answer.status !== 'duplicate') throw new Error(`duplicate upload answered ${answer.status}`);
        dupTimes.push(answer.ms);
      }
      uploadRows.push([
        'POST /assets of a file already there (duplicate)',
        median(dupTimes).toFixed(0),
        percentile(dupTimes, 99).toFixed(0),
        '',
      ]);
    } catch (error) {
      uploadRows.push([`uploads failed: ${error instanceof Error ? error.message : String(error)}`, '', '', '']);
    }
    return { size, shape, generation, checks, syncRows, readRows, uploadRows };
  } finally {
    await stack.stop();
  }
};

const run = async (): Promise<string> => {
  const sizes = parseSizes(process.argv.slice(2));
  if (sizes.length === 0) sizes.push(100_000);
  const results: SizeResult[] = [];
  for (const size of sizes) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent', SCALE_BENCH_SIZE: String(size) },
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results.push(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as SizeResult);
  }
  const label = (r: SizeResult) => `${count(r.size / 1000)}k`;
  return [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, shared with other work while measured (figures are noisy). DynamoDB Local (in memory) and the local server in one process; the client in the same process.`,
    '',
    ...results.flatMap((r) => [
      `**${label(r)}**: ${r.shape}. Generation: ${r.generation.join('; ')}. Checked: ${r.checks.join('; ')}.`,
      '',
    ]),
    'The 3.x app\'s sync stream (every type it asks for, gzip as the app asks): "MB" decompressed, "wire MB" sent; "heap MB" the process\'s heap above what it held before, "RSS MB" its peak resident memory (server, DynamoDB Local\'s client side and the measuring client together).',
    '',
    table(
      ['library', 'user', 'sync', 'lines', 'items read', 'RCU', 'MB', 'wire MB', 'seconds', 'heap MB', 'RSS MB'],
      results.flatMap((r) => r.syncRows.map((row) => [label(r), ...row])),
    ),
    '',
    'Reads as the first user (45% of the library, a partner\'s 30% in their timeline): items read and RCU of the last of 3 calls after a warm-up, the answer\'s size raw and gzip, the median of 3 (ms); "Lambda": whether the answer fits a Lambda answer (6 MB) only gzip-compressed (base64 in the envelope), or not at all.',
    '',
    table(
      ['library', 'call', 'items read', 'RCU', 'KB', 'gzip KB', 'ms', 'answer', 'Lambda'],
      results.flatMap((r) => r.readRows.map((row) => [label(r), ...row])),
    ),
    '',
    table(
      ['library', 'upload', 'p50 ms', 'p99 ms', 'rate'],
      results.flatMap((r) => r.uploadRows.map((row) => [label(r), ...row])),
    ),
  ].join('\n');
};

if (import.meta.main) {
  const size = Number(process.env.SCALE_BENCH_SIZE);
  if (!size) throw new Error('SCALE_BENCH_SIZE: the size this process measures');
  process.stdout.write(`\n${JSON.stringify(await measureSize(size))}\n`);
}

export const scaleSection: Section = { name: 'scale', run };
