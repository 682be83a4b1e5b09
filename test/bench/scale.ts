import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip, gzipSync } from 'node:zlib';
import { makeJpeg } from '../support/photos.ts';
import { startDeployedStack, startLocalStack } from './local-stack.ts';
import type { Section } from './run.ts';
import {
  dbDir,
  describe,
  type KeptAsset,
  type KeptLibrary,
  type KeptUser,
  libraryFile,
  loadLibrary,
  saveLibrary,
} from './scale/library.ts';
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
 *   npm run bench -- scale 500k --keep DIR    generates into DynamoDB Local on disk under DIR/db and
 *       keeps it with its description (DIR/library.json, ./scale/library.ts); DIR on /dev/shm (a
 *       tmpfs) writes at about in-memory speed without holding the table in Java's heap
 *   npm run bench -- scale --reuse DIR        measures a kept library with the current code (no
 *       generation; other sizes given are generated as usual, each in its own DynamoDB Local)
 *   node test/bench/scale.ts 500k --keep DIR --generate-only   generation only (writes no doc)
 *   --first-syncs N      only the first N users' first syncs (the first user's is always made: its
 *       incremental syncs follow it); the table says which were made
 * Items read and RCU are DynamoDB's for the request (ReturnConsumedCapacity on the functions'
 * client); bytes are the answer's body as sent (JSON), and its gzip size.
 */

const sizeOf = (arg: string) => (arg.toLowerCase().endsWith('k') ? Number(arg.slice(0, -1)) * 1000 : Number(arg));

/** One library to measure: a size generated (and kept under `keep`), or a kept one reused. */
export type ScaleJob = { size: number; keep?: string } | { reuse: string };

/** The parts of a measurement (`--only sync,reads`): all when not given. */
export const scaleParts = ['sync', 'reads', 'map', 'uploads'] as const;
export type ScalePart = (typeof scaleParts)[number];

export interface ScaleArgs {
  jobs: ScaleJob[];
  generateOnly: boolean;
  firstSyncs?: number;
  /** Served by the deployed form (`npm run start:deployed`) instead of the local server. */
  deployed?: boolean;
  only?: ScalePart[];
}

/** The scale section's arguments: sizes, `--keep DIR` (the sizes given: one), `--reuse DIR` (repeatable), `--generate-only`, `--first-syncs N`. */
export const parseScaleArgs = (args: readonly string[]): ScaleArgs => {
  const sizes: number[] = [];
  const reuse: string[] = [];
  let keep: string | undefined;
  let generateOnly = false;
  let firstSyncs: number | undefined;
  let deployed = false;
  let only: ScalePart[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = () => {
      const next = args[++i];
      if (next === undefined) throw new Error(`${arg}: a value is missing`);
      return next;
    };
    if (arg === '--keep') keep = value();
    else if (arg === '--reuse') reuse.push(value());
    else if (arg === '--generate-only') generateOnly = true;
    else if (arg === '--first-syncs') firstSyncs = Number(value());
    else if (arg === '--deployed') deployed = true;
    else if (arg === '--only') {
      const parts = value().split(',');
      const unknown = parts.filter((part) => !scaleParts.some((known) => known === part));
      if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} is not one of ${scaleParts.join(', ')}`);
      only = scaleParts.filter((part) => parts.includes(part));
    } else if (/^\d+k?$/i.test(arg)) sizes.push(sizeOf(arg));
  }
  if (keep !== undefined && sizes.length !== 1) throw new Error('--keep DIR keeps one library: give one size');
  if (sizes.length === 0 && reuse.length === 0) sizes.push(100_000);
  return {
    jobs: [...sizes.map((size) => ({ size, ...(keep === undefined ? {} : { keep }) })), ...reuse.map((dir) => ({ reuse: dir }))],
    generateOnly,
    ...(firstSyncs === undefined ? {} : { firstSyncs }),
    ...(deployed ? { deployed } : {}),
    ...(only === undefined ? {} : { only }),
  };
};

/** Arguments of the scale section that are not section names (for test/bench/run.ts). */
export const scaleArgValues = (args: readonly string[]): Set<string> => {
  const values = new Set<string>();
  args.forEach((arg, i) => {
    if (/^\d+k?$/i.test(arg) || arg === '--generate-only' || arg === '--deployed') values.add(arg);
    if (['--keep', '--reuse', '--first-syncs', '--only'].includes(arg)) {
      values.add(arg);
      if (args[i + 1] !== undefined) values.add(args[i + 1] as string);
    }
  });
  return values;
};

const count = (n: number) => Math.round(n).toLocaleString('en');
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(2);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
/** Lambda's largest answer (infra/local/deployed/api-gateway.ts). */
const lambdaMax = 6_291_556;
/** API Gateway's integration timeout (not enforced by the deployed form locally: the function's own timeout is). */
const gatewayMs = 29_000;

export interface SizeResult {
  size: number;
  /** Served by the local server, or by the deployed form (its functions' memory and timeout said in `served`). */
  form: 'local' | 'deployed';
  served: string;
  /** When it was measured (YYYY-MM-DD). */
  date: string;
  /** The parts measured, when not all (`--only`). */
  only?: ScalePart[];
  shape: string;
  generation: string[];
  checks: string[];
  syncRows: (string | number)[][];
  readRows: (string | number)[][];
  mapRows: (string | number)[][];
  uploadRows: (string | number)[][];
}

type User = KeptUser & { token: string; auth: { baseUrl: string; headers: Record<string, string> } };

type JobOptions = Pick<ScaleArgs, 'generateOnly' | 'firstSyncs' | 'deployed' | 'only'>;

const measureJob = async (job: ScaleJob, options: JobOptions): Promise<SizeResult> => {
  const servedForm: SizeResult['form'] = options.deployed ? 'deployed' : 'local';
  const doing = (part: ScalePart) => options.only === undefined || options.only.includes(part);
  const date = new Date().toISOString().slice(0, 10);
  const kept = 'reuse' in job ? loadLibrary(job.reuse) : undefined;
  const dir = 'reuse' in job ? job.reuse : job.keep;
  const size = kept?.size ?? ('size' in job ? job.size : 0);
  if ('keep' in job && job.keep !== undefined && existsSync(libraryFile(job.keep)))
    throw new Error(`--keep ${job.keep}: it holds a library already (--reuse it, or remove the folder)`);
  if ('keep' in job && job.keep !== undefined && existsSync(dbDir(job.keep)))
    throw new Error(`--keep ${job.keep}: it holds the table of a generation that did not finish (remove the folder)`);
  const work = dir ?? mkdtempSync(join(tmpdir(), 'immich-bench-scale-'));
  const dbPath = dir ? dbDir(dir) : process.env.SCALE_DB_PATH ? join(process.env.SCALE_DB_PATH, `scale-${size}-${Date.now()}`) : undefined;
  const stackOptions = {
    ...(dbPath ? { dbPath } : {}),
    ...(kept ? { tableName: kept.tableName, existing: true } : dir ? { tableName: 'scale' } : {}),
  };
  const local = options.deployed ? undefined : await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') }, stackOptions);
  const deployed = options.deployed ? await startDeployedStack({ s3Dir: join(work, 'deployed-s3') }, stackOptions) : undefined;
  const stack = (local ?? deployed) as NonNullable<typeof local | typeof deployed>;
  const { baseUrl, tableName, adminAuth } = stack;
  // The deployed form's functions of the streamed routes: their memory (heap limit) and timeout, and their heap sampled.
  const streamed = deployed && {
    sync: deployed.functionOf('POST /api/sync/stream'),
    markers: deployed.functionOf('GET /api/map/markers'),
    markersV1: deployed.functionOf('GET /api/asset/map-marker'),
  };
  const served = streamed
    ? `the deployed form (the synthesized template; the sync stream's function ${streamed.sync.memoryMb} MB and ${streamed.sync.timeoutSeconds} s, the map markers' ${streamed.markers.memoryMb} MB and ${streamed.markers.timeoutSeconds} s, each function's heap limited to its memory)`
    : 'the local server';
  /** Samples the largest heap of a function's environments while `work` runs (0 when served locally). */
  const heapPeak = async <T>(functionId: string | undefined, work: () => Promise<T>): Promise<{ result: T; heap: number }> => {
    if (!deployed || !functionId) return { result: await work(), heap: 0 };
    let heap = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        heap = Math.max(heap, await deployed.heapUsed(functionId));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      const result = await work();
      sampling = false;
      await sampler;
      return { result, heap };
    } finally {
      sampling = false;
    }
  };
  const { db } = await import('#shared/db/client.ts');
  const sdk = await import('@immich/sdk-v3');
  const { table: tableDefinition } = await import('#shared/db/table.ts');
  // Served here, the functions share this process's client; deployed, each has its own, counted on their way to DynamoDB Local.
  const meter = deployed?.meter ?? meterReads(db, tableDefinition.indexes);
  const units = (n: number, digits = 0) => (digits ? n.toFixed(digits) : count(n));
  const log = (line: string) => process.stderr.write(`[scale ${count(size)}] ${line}\n`);
  try {
    let lib: KeptLibrary;
    let users: User[];
    if (kept) {
      lib = kept;
      users = [];
      for (const user of kept.users) {
        const session = await sdk.login({ loginCredentialDto: { email: user.email, password: user.password } }, { baseUrl });
        users.push({ ...user, token: session.accessToken, auth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } } });
      }
      log(`reusing ${libraryFile(dir as string)} (measured ${kept.runs} time${kept.runs === 1 ? '' : 's'} before)`);
    } else {
      const { generate } = await import('./scale/generate.ts');
      const t0 = performance.now();
      const generated = await generate(size, { sdk, db, tableName, baseUrl, adminAuth }, log);
      const generateSeconds = (performance.now() - t0) / 1000;
      const g = generated.seconds;
      const generation = `${count(generated.items)} items built in ${g.build.toFixed(1)} s and written in ${g.items.toFixed(1)} s (${count(generated.items / g.items)} items/s${dbPath ? ', DynamoDB Local on disk' : ''}); the API part (partners, stacks, memories, tags) ${g.api.toFixed(1)} s; in all ${generateSeconds.toFixed(0)} s`;
      log(generation);
      lib = describe(generated, tableName, generation);
      users = generated.users.map((user, i) => ({ ...(lib.users[i] as KeptUser), token: user.token, auth: user.auth }));
      if (dir) {
        saveLibrary(dir, lib);
        log(`kept in ${dir} (${libraryFile(dir)} and the table under ${dbDir(dir)})`);
      }
    }
    const [a] = users as [User];
    const assetsTotal = users.reduce((n, u) => n + u.assets.length, 0);
    const facesTotal = users.reduce((n, u) => n + u.faces, 0);
    const peopleTotal = users.reduce((n, u) => n + u.people.length, 0);
    const entries = lib.albums.reduce((n, album) => n + album.entries, 0);
    const shape = `${count(assetsTotal)} asset items (${users.map((u) => count(u.assets.length)).join(' / ')}), ${count(facesTotal)} faces of ${count(peopleTotal)} people, ${count(lib.albums.length)} albums with ${count(entries)} entries (${lib.albums.filter((x) => x.shared).length} shared), ${lib.stacks} stacks, ${lib.memories} memories, ${count(lib.tagged)} tag entries, 2 partner shares`;
    const generation = [
      kept ? `${lib.generation} (a kept library, measured ${lib.runs} time${lib.runs === 1 ? '' : 's'} before)` : lib.generation,
    ];
    const result = { size, form: servedForm, served, date, shape, generation, ...(options.only ? { only: options.only } : {}) };
    if (options.generateOnly) return { ...result, checks: [], syncRows: [], readRows: [], mapRows: [], uploadRows: [] };

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
        if (asset.visibility === 'timeline' && !asset.trashed) {
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

    // First sync of the 3.x app for each user (the first --first-syncs), then the first user's
    // incremental syncs. A stream that ends before SyncCompleteV1 (its deadline) is acked and
    // called again, as the app does, until one completes: the row counts the streams.
    const syncRows: (string | number)[][] = [];
    const sync = async (user: User, name: string) => {
      global.gc?.();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      let rss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed);
        rss = Math.max(rss, process.memoryUsage().rss);
      }, 5);
      const total: StreamStats = { lines: 0, wireBytes: 0, bytes: 0, types: new Map(), acks: [], complete: false };
      let items = 0;
      let capacity = 0;
      let streams = 0;
      // Deployed: the sync function's heap (its environments' largest), and a stream that fails is a finding, not the end of the run.
      let failed: string | undefined;
      let sampling = streamed !== undefined;
      let functionHeap = 0;
      const functionSampler = (async () => {
        while (sampling && deployed && streamed) {
          functionHeap = Math.max(functionHeap, await deployed.heapUsed(streamed.sync.id));
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();
      const t = performance.now();
      try {
        while (!total.complete) {
          if (++streams > 100) throw new Error(`${user.name}'s ${name}: no SyncCompleteV1 after 100 streams`);
          meter.items = 0;
          meter.capacity = 0;
          const stats = await stream(baseUrl, user.token, undefined, { cut: true });
          items += meter.items;
          capacity += meter.capacity;
          total.lines += stats.lines;
          total.bytes += stats.bytes;
          total.wireBytes += stats.wireBytes;
          for (const [type, n] of stats.types) total.types.set(type, (total.types.get(type) ?? 0) + n);
          total.complete = stats.complete;
          if (!stats.complete && stats.lines === 0)
            throw new Error(`${user.name}'s ${name}: a stream ended with no line and no SyncCompleteV1`);
          // The acks of a stream cut short go in before the next (inside the time); the last's after.
          if (!stats.complete) await ack(sdk, user.auth, stats.acks);
          else total.acks = stats.acks;
        }
      } catch (error) {
        if (!deployed) throw error;
        failed = error instanceof Error ? error.message : String(error);
      } finally {
        clearInterval(sampler);
        sampling = false;
        await functionSampler;
      }
      const seconds = (performance.now() - t) / 1000;
      const row = [
        user.name,
        name,
        count(total.lines),
        units(items),
        units(capacity),
        mb(total.bytes),
        mb(total.wireBytes),
        failed ? `${streams} (the last failed: ${failed.slice(0, 200)}; ${deployed?.failures.slice(-1).join('') ?? ''})` : streams,
        seconds.toFixed(1),
        mb(deployed ? functionHeap : peak - baseline),
        mb(rss),
      ];
      syncRows.push(row);
      log(`sync ${row.join(' | ')}`);
      if (failed) return undefined;
      await ack(sdk, user.auth, total.acks);
      return total;
    };
    const synced = doing('sync') ? users.slice(0, Math.max(1, options.firstSyncs ?? users.length)) : [];
    let firstOk = true;
    for (const user of synced) {
      const first = await sync(user, 'first sync');
      if (!first) {
        checks.push(`${user.name}'s first sync failed (its row)`);
        if (user === a) firstOk = false;
        continue;
      }
      const own = first.types.get('AssetV2') ?? 0;
      if (own !== user.assets.length) throw new Error(`${user.name}: first sync sent ${own} AssetV2, ${user.assets.length} generated`);
      checks.push(
        `${user.name}'s first sync: ${count(own)} AssetV2 lines (as generated), ${count(first.types.get('PartnerAssetV2') ?? 0)} PartnerAssetV2, ${count(first.types.get('AlbumToAssetV1') ?? 0)} AlbumToAssetV1, ${count(first.types.get('AssetFaceV2') ?? 0)} AssetFaceV2, ended with SyncCompleteV1`,
      );
    }
    if (synced.length > 0 && synced.length < users.length)
      checks.push(
        `first syncs of ${synced.map((u) => u.name).join(', ')} only (--first-syncs ${synced.length}), not of ${users
          .slice(synced.length)
          .map((u) => u.name)
          .join(', ')}`,
      );
    const changeable = a.assets.filter((x) => x.visibility === 'timeline' && !x.trashed && !x.isFavorite);
    const favourite = async (list: readonly KeptAsset[]) => {
      for (let i = 0; i < list.length; i += 100)
        await sdk.updateAssets({ assetBulkUpdateDto: { ids: list.slice(i, i + 100).map((x) => x.id), isFavorite: true } }, a.auth);
      // A kept library remembers them (the next run changes others).
      for (const asset of list) asset.isFavorite = true;
    };
    if (synced.length > 0 && firstOk) {
      await favourite(changeable.slice(0, 10));
      await sync(a, 'after 10 changes');
      await favourite(changeable.slice(10, 1010));
      await sync(a, 'after 1,000 changes');
      if (changeable.length >= 11_010) {
        await favourite(changeable.slice(1010, 11_010));
        await sync(a, 'after 10,000 changes');
      }
      const noChange = await sync(a, 'no change');
      if (noChange && noChange.lines > 2) checks.push(`a sync after no change sent ${noChange.lines} lines`);
    } else if (synced.length === 0) checks.push('no syncs (--only without sync)');

    // Reads, as the first user (with a partner in the timeline), each measured 5 times after a warm-up.
    const readRows: (string | number)[][] = [];
    const measure = async (
      name: string,
      call: () => ReturnType<typeof json>,
      note: (body: unknown) => string = () => '',
      options: { first?: string } = {},
    ): Promise<unknown> => {
      try {
        return await measureOnce(name, call, note, options);
      } catch (error) {
        // Deployed, a refused answer (6 MB, a timeout, a heap out of memory) is a finding: its row says what failed.
        if (!deployed) throw error;
        const failure = `failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 160)}${deployed.failures.length ? ` (${deployed.failures.at(-1)})` : ''}`;
        readRows.push([name, '', '', '', '', '', '', failure]);
        log(`read ${name} ${failure}`);
        return undefined;
      }
    };
    const measureOnce = async (
      name: string,
      call: () => ReturnType<typeof json>,
      note: (body: unknown) => string,
      options: { first?: string },
    ) => {
      const first = await call();
      // The warm-up call's own row, when it does what later calls do not (albums' summaries computed on first need).
      if (options.first)
        readRows.push([
          `${name}: ${options.first}`,
          count(first.items),
          first.rcu.toFixed(1),
          kb(first.bytes),
          kb(first.gzip),
          first.ms.toFixed(0),
          note(first.body),
          first.ms > gatewayMs ? "over API Gateway's 29 s" : '',
        ]);
      const times: number[] = [];
      let last = first;
      for (let i = 0; i < 3; i++) {
        last = await call();
        times.push(last.ms);
      }
      // What Lambda could return (6 MB, the body escaped in its JSON result; gzip goes base64, a third more).
      const lambda = [
        last.bytes + 16 * 1024 <= lambdaMax ? '' : (last.gzip * 4) / 3 + 16 * 1024 <= lambdaMax ? 'gzip only' : 'over 6 MB',
        median(times) > gatewayMs ? "over API Gateway's 29 s" : '',
      ]
        .filter(Boolean)
        .join(', ');
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
    if (doing('reads')) {
      const buckets = ((await measure(
        'GET /timeline/buckets (with partners, stacked)',
        get('/timeline/buckets?visibility=timeline&withPartners=true&withStacked=true'),
        length,
      )) ?? (await json(a.token, 'GET', '/timeline/buckets?visibility=timeline&withPartners=true&withStacked=true')).body) as {
        timeBucket: string;
        count: number;
      }[];
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
      await measure('GET /albums', get('/albums'), length, {
        first: kept ? `first call (a kept library, run ${lib.runs + 1})` : 'first call',
      });
      await measure('GET /memories', get('/memories'), length);
      await measure('GET /assets/statistics', get('/assets/statistics'));
    }

    // The map: every marker in one answer, streamed (gzip as fetch asks for it): time to the first
    // byte and to the last, decompressed and parsed as fetch's json() does; median of 3 after a warm-up.
    const mapRows: (string | number)[][] = [];
    const mapCall = (path: string) =>
      new Promise<{ firstByte: number; ms: number; wire: number; bytes: number; markers: number; gzip: boolean }>((resolve, reject) => {
        meter.items = 0;
        meter.capacity = 0;
        const t = performance.now();
        const req = request(
          new URL(`${baseUrl}${path}`),
          { headers: { authorization: `Bearer ${a.token}`, 'accept-encoding': 'gzip, deflate' } },
          (res) => {
            let firstByte = -1;
            let wire = 0;
            const chunks: Buffer[] = [];
            const gzip = res.headers['content-encoding'] === 'gzip';
            res.on('data', (chunk: Buffer) => {
              if (firstByte < 0) firstByte = performance.now() - t;
              wire += chunk.length;
            });
            const body = gzip ? res.pipe(createGunzip()) : res;
            body.on('data', (chunk: Buffer) => chunks.push(chunk));
            body.on('error', reject);
            body.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if (res.statusCode !== 200) return reject(new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
              try {
                const markers = (JSON.parse(text) as unknown[]).length;
                resolve({ firstByte, ms: performance.now() - t, wire, bytes: Buffer.byteLength(text), markers, gzip });
              } catch (error) {
                reject(error);
              }
            });
          },
        );
        req.on('error', reject);
        req.end();
      });
    if (doing('map')) {
      for (const [name, path, fn] of [
        ['GET /map/markers (with partners)', '/map/markers?withPartners=true', streamed?.markers],
        ['GET /map/markers (own)', '/map/markers', streamed?.markers],
        ['v1.100 GET /asset/map-marker (own)', '/asset/map-marker', streamed?.markersV1],
      ] as const) {
        try {
          // Deployed, the markers function's heap (its environments' largest) over the four calls.
          const { result: runs, heap } = await heapPeak(fn?.id, async () => {
            await mapCall(path);
            const runs = [];
            for (let i = 0; i < 3; i++) runs.push({ ...(await mapCall(path)), items: meter.items, rcu: meter.capacity });
            return runs;
          });
          const last = runs.at(-1) as (typeof runs)[number];
          const row = [
            name,
            units(last.items),
            units(last.rcu, 1),
            count(last.markers),
            mb(last.bytes),
            `${mb(last.wire)}${last.gzip ? '' : ' (not compressed)'}`,
            median(runs.map((r) => r.firstByte)).toFixed(0),
            median(runs.map((r) => r.ms)).toFixed(0),
            ...(deployed ? [mb(heap)] : []),
          ];
          mapRows.push(row);
          log(`map ${row.join(' | ')}`);
        } catch (error) {
          if (!deployed) throw error;
          const failure = `failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 160)}${deployed.failures.length ? ` (${deployed.failures.at(-1)})` : ''}`;
          mapRows.push([name, '', '', '', '', '', '', failure, '']);
          log(`map ${name} ${failure}`);
        }
      }
    }

    // Uploads: the bulk check of 10,000 checksums (half known), uploads by 8 clients, a duplicate.
    const uploadRows: (string | number)[][] = [];
    const uploaded: string[] = [];
    if (doing('uploads')) {
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
        const body = (await res.json()) as { id: string; status: string };
        if (res.status >= 300) throw new Error(`POST /assets: ${res.status} ${JSON.stringify(body)}`);
        if (body.status === 'created') uploaded.push(body.id);
        return { ms: performance.now() - t, status: body.status };
      };
      // A failure here keeps what was measured before it (the row says what failed).
      try {
        const photos = Array.from({ length: 160 }, () =>
          // Photos no earlier run on a kept library uploaded (else they are duplicates, and write nothing).
          makeJpeg({
            color: [colour % 256, Math.floor(colour++ / 256) % 256, (9 + lib.runs) % 256],
            // A run cut short after its uploads saves no run count: the comment keeps each run's files new.
            comment: `scale-${randomUUID()}`,
            make: 'Scale',
            city: 'Paris',
          }),
        );
        const times: number[] = [];
        const queue = [...photos];
        // Read and write units an upload costs: its request and its media job's work (metadata,
        // thumbnails) together, the job waited for.
        meter.capacity = 0;
        meter.writes = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            for (let photo = queue.shift(); photo; photo = queue.shift()) {
              const answer = await upload(photo);
              if (answer.status !== 'created') throw new Error(`a new photo's upload answered ${answer.status}`);
              times.push(answer.ms);
            }
          }),
        );
        const wall = (performance.now() - started) / 1000;
        await stack.mediaIdle();
        uploadRows.push([
          `POST /assets, 8 clients, ${photos.length} photos${resets ? ` (${resets} reset connection${resets > 1 ? 's' : ''} sent again)` : ''}`,
          median(times).toFixed(0),
          percentile(times, 99).toFixed(0),
          `${(photos.length / wall).toFixed(1)}/s`,
          units(meter.capacity / photos.length, 1),
          units(meter.writes / photos.length, 1),
        ]);
        const dupTimes: number[] = [];
        meter.capacity = 0;
        meter.writes = 0;
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
          units(meter.capacity / 10, 1),
          units(meter.writes / 10, 1),
        ]);
      } catch (error) {
        uploadRows.push([`uploads failed: ${error instanceof Error ? error.message : String(error)}`, '', '', '', '', '']);
      }
    }
    if (dir) {
      // The kept library as the table now holds it: the uploads are the first user's assets (the
      // next run's checks count them), the favourites are marked above.
      for (const id of uploaded) {
        const asset = await sdk.getAssetInfo({ id }, a.auth);
        a.assets.push({
          id,
          checksum: Buffer.from(asset.checksum, 'base64').toString('hex'),
          localDateTime: asset.localDateTime,
          visibility: asset.visibility,
          trashed: asset.isTrashed,
          isFavorite: asset.isFavorite,
        });
      }
      saveLibrary(dir, { ...lib, users: users.map(({ token: _token, auth: _auth, ...user }) => user), runs: lib.runs + 1 });
    }
    if (deployed?.failures.length) checks.push(`failed invocations: ${deployed.failures.map((f) => f.slice(0, 200)).join('; ')}`);
    return { ...result, checks, syncRows, readRows, mapRows, uploadRows };
  } finally {
    await stack.stop();
  }
};

const label = (size: number) => `${count(size / 1000)}k`;
const sizeOfLabel = (text: string) => sizeOf(text.replace(/,/g, ''));

/** One table of the section: its caption, its header (what tells it apart in the doc), and each result's rows. */
interface TableSpec {
  form: SizeResult['form'];
  caption: string;
  header: string[];
  rows: (r: SizeResult) => (string | number)[][];
  /** How many cells after the library's name a row is known by (a run of some parts replaces only its own rows). */
  keyCells?: number;
}

const tables: TableSpec[] = [
  {
    form: 'local',
    caption:
      'The 3.x app\'s sync stream (every type it asks for, gzip as the app asks): "MB" decompressed, "wire MB" sent; "streams" how many calls it took (a stream its deadline ends before SyncCompleteV1 is acked and called again, as the app does; items, RCU, MB and seconds are all of them together); "heap MB" the process\'s heap above what it held before, "RSS MB" its peak resident memory (server, DynamoDB Local\'s client side and the measuring client together).',
    header: ['library', 'user', 'sync', 'lines', 'items read', 'RCU', 'MB', 'wire MB', 'streams', 'seconds', 'heap MB', 'RSS MB'],
    rows: (r) => r.syncRows,
    keyCells: 2,
  },
  {
    form: 'local',
    caption:
      'Reads as the first user (45% of the library, a partner\'s 30% in their timeline): items read and RCU of the last of 3 calls after a warm-up, the answer\'s size raw and gzip, the median of 3 (ms); "Lambda": whether the answer fits a Lambda answer (6 MB) only gzip-compressed (base64 in the envelope), or not at all.',
    header: ['library', 'call', 'items read', 'RCU', 'KB', 'gzip KB', 'ms', 'answer', 'Lambda'],
    rows: (r) => r.readRows,
  },
  {
    form: 'local',
    caption:
      'The map (`GET /map/markers`, and v1.100\'s `GET /asset/map-marker`, as the first user): every marker in one answer, streamed, gzip-compressed as fetch asks for it; "first byte" and "ms" the median of 3 after a warm-up, the whole answer decompressed and parsed; items read and RCU of the last.',
    header: ['library', 'call', 'items read', 'RCU', 'markers', 'MB', 'wire MB', 'first byte ms', 'ms'],
    rows: (r) => r.mapRows,
  },
  {
    form: 'local',
    caption:
      'Uploads as the first user: "RCU each" and "WCU each" the read and write units an upload costs, its media job\'s work (metadata, thumbnails) waited for and included; for the duplicate, its request. Write units add the index copies of each item put, as AWS bills them (DynamoDB Local reports the table\'s); the index writes of updates are not visible, so they are low.',
    header: ['library', 'upload', 'p50 ms', 'p99 ms', 'rate', 'RCU each', 'WCU each'],
    rows: (r) => r.uploadRows,
  },
  {
    form: 'deployed',
    caption:
      "Through the deployed form (`--deployed`: `npm run start:deployed`'s server, infra/local/deployed/): the synthesized template's routes, the streamed ones (the sync stream, the map markers) through the distribution to their function URL, every other through API Gateway (6 MB); each function's bundle in Lambda-like environments (worker threads) with its memory as their heap limit and its timeout; every AWS call through the IAM-checking gateway to DynamoDB Local. The sync stream: columns as above; \"function heap MB\" the largest heap the sync function's environments used (sampled every 25 ms, garbage not yet collected included), \"RSS MB\" the whole process's peak (every function's environments, the gateway, s3rver and the client). Items read and read units are the functions' own, counted between the IAM-checking gateway and DynamoDB Local (test/bench/scale/dynamo-meter.ts).",
    header: [
      'library (deployed)',
      'user',
      'sync',
      'lines',
      'items read',
      'RCU',
      'MB',
      'wire MB',
      'streams',
      'seconds',
      'function heap MB',
      'RSS MB',
    ],
    rows: (r) => r.syncRows,
    keyCells: 2,
  },
  {
    form: 'deployed',
    caption:
      'Reads through API Gateway, as above; a failed call (6 MB, a timeout, a heap out of memory) is a row saying so; "over API Gateway\'s 29 s" when the median passes its integration timeout (which the local gateway does not enforce).',
    header: ['library (deployed)', 'call', 'items read', 'RCU', 'KB', 'gzip KB', 'ms', 'answer', 'Lambda'],
    rows: (r) => r.readRows,
  },
  {
    form: 'deployed',
    caption:
      "The map through the markers' function URLs, as above; \"function heap MB\" the largest heap the route's function's environments used over the four calls.",
    header: ['library (deployed)', 'call', 'items read', 'RCU', 'markers', 'MB', 'wire MB', 'first byte ms', 'ms', 'function heap MB'],
    rows: (r) => r.mapRows,
  },
  {
    form: 'deployed',
    caption:
      "Uploads through the distribution (its viewer-request function, then API Gateway), their media jobs through the bucket's notifications, as above.",
    header: ['library (deployed)', 'upload', 'p50 ms', 'p99 ms', 'rate', 'RCU each', 'WCU each'],
    rows: (r) => r.uploadRows,
  },
];

/** What a run of some parts adds to the size's paragraph. */
const againNote = (r: SizeResult) =>
  `Measured again ${r.date} through ${r.served}: ${(r.only ?? []).join(', ')} (their rows)${r.checks.length ? `; checked: ${r.checks.join('; ')}` : ''}.`;

/** What the doc's section holds now: each size's paragraph (by its bold label) and each table's rows (by its header line). */
const parseSection = (text: string) => {
  const paragraphs = new Map<string, string>();
  const rows = new Map<string, string[]>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const bold = /^\*\*([^*]+)\*\*: /.exec(line);
    if (bold?.[1]) paragraphs.set(bold[1], line);
    if (line.startsWith('| ') && lines[i + 1]?.startsWith('| ---')) {
      const body: string[] = [];
      for (i += 2; lines[i]?.startsWith('| '); i++) body.push(lines[i] as string);
      rows.set(line, body);
      i--;
    }
  }
  return { paragraphs, rows };
};

/**
 * The section: the sizes and forms this run measured, and the rows of the others as the doc had
 * them (a run rewrites only the sizes it ran, in the form it ran them: `--deployed` keeps the local
 * rows, a 10k run keeps the 500k rows). Rows and paragraphs in size order.
 */
export const scaleSectionText = (results: readonly SizeResult[], current = ''): string => {
  const old = parseSection(current);
  const ran = (form: SizeResult['form']) => new Set(results.filter((r) => r.form === form).map((r) => label(r.size)));
  const resultOf = (form: SizeResult['form'], size: number) => results.find((r) => r.form === form && r.size === size);
  const cells = (line: string, n: number) =>
    line
      .split('|')
      .slice(2, 2 + n)
      .map((cell) => cell.trim())
      .join('|');
  const key = (form: SizeResult['form'], size: string) => (form === 'local' ? size : `${size}, deployed`);
  const bySize = (x: { size: number }, y: { size: number }) => x.size - y.size;
  const parts: string[] = [
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, shared with other work while measured (figures are noisy; items, read units and bytes are not). Through the local server: DynamoDB Local and the server in one process, the client in the same process; through the deployed form: the same, the functions in worker threads of that process.`,
    '',
  ];
  for (const form of ['local', 'deployed'] as const) {
    const kept = [...old.paragraphs]
      .filter(([name]) => (form === 'local' ? !name.includes(',') : name.endsWith(', deployed')))
      .map(([name, line]) => ({ size: sizeOfLabel(name.split(',')[0] ?? ''), name, line }))
      .map((p) => {
        // A run of some parts (`--only`) keeps the size's paragraph and says what it measured again.
        const r = resultOf(form, p.size);
        return r?.only ? { ...p, line: `${p.line} ${againNote(r)}` } : p;
      })
      .filter((p) => !ran(form).has(label(p.size)) || resultOf(form, p.size)?.only);
    const fresh = results
      .filter((r) => r.form === form && !kept.some((p) => p.size === r.size))
      .map((r) => ({
        size: r.size,
        line: `**${key(form, label(r.size))}**: ${r.shape}. Measured ${r.date} through ${r.served}${r.only ? ` (${r.only.join(', ')} only)` : ''}. Generation: ${r.generation.join('; ')}. Checked: ${r.checks.join('; ')}.`,
      }));
    for (const p of [...kept, ...fresh].sort(bySize)) parts.push(p.line, '');
    for (const spec of tables.filter((t) => t.form === form)) {
      const headerLine = `| ${spec.header.join(' | ')} |`;
      const freshRows = results
        .filter((r) => r.form === form)
        .flatMap((r) => spec.rows(r).map((row) => ({ size: r.size, line: `| ${[label(r.size), ...row].join(' | ')} |` })));
      const n = spec.keyCells ?? 1;
      const freshKeys = new Set(freshRows.map((row) => `${row.size}|${cells(row.line, n)}`));
      // The sizes this run measured lose their old rows (all of them, or with `--only` those it measured again).
      const keptRows = (old.rows.get(headerLine) ?? [])
        .map((line) => ({ size: sizeOfLabel(line.split('|')[1]?.trim() ?? ''), line }))
        .filter((row) => {
          const r = resultOf(form, row.size);
          return !r || (r.only !== undefined && !freshKeys.has(`${row.size}|${cells(row.line, n)}`));
        });
      const all = [...keptRows, ...freshRows].sort(bySize);
      if (all.length === 0) continue;
      parts.push(spec.caption, '', table(spec.header, []), ...all.map((row) => row.line), '');
    }
  }
  return parts.join('\n').trim();
};

/** The section as docs/benchmarks.md holds it now (empty when it has none). */
const currentSection = (): string => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md'), 'utf8');
  const from = doc.indexOf('<!-- bench:scale -->');
  const to = doc.indexOf('<!-- /bench:scale -->');
  return from < 0 || to < 0 ? '' : doc.slice(from, to);
};

const run = async (): Promise<string> => {
  const args = parseScaleArgs(process.argv.slice(2));
  const results: SizeResult[] = [];
  for (const job of args.jobs) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      env: {
        ...process.env,
        LOG_LEVEL: 'silent',
        SCALE_BENCH_JOB: JSON.stringify({
          job,
          generateOnly: args.generateOnly,
          firstSyncs: args.firstSyncs,
          deployed: args.deployed,
          only: args.only,
        }),
      },
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    results.push(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as SizeResult);
  }
  return scaleSectionText(results, currentSection());
};

if (import.meta.main) {
  if (process.env.SCALE_BENCH_JOB) {
    // One library, in a process of its own (run() starts it).
    const { job, ...options } = JSON.parse(process.env.SCALE_BENCH_JOB) as { job: ScaleJob } & JobOptions;
    process.stdout.write(`\n${JSON.stringify(await measureJob(job, options))}\n`);
  } else {
    // `node test/bench/scale.ts 500k --keep DIR --generate-only`: prints the section, writes no doc.
    process.env.LOG_LEVEL = 'silent';
    console.log(await run());
  }
}

export const scaleSection: Section = { name: 'scale', run };
