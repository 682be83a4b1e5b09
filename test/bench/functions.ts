import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { esbuildOptions, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { eventFunctions, functionName, routes, webRoutes } from '#infra/routes.ts';
import { sdkFloorBundle } from './sdk-floor.ts';
import { median, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.bench', 'bundles');
const runs = 20;
export const budget = { ms: 40, kb: 400 };
// Functions with originals-store access carry the S3 client (~200 KB with its XML and checksum
// layers); the upload function also exifr (~75 KB, XMP and IPTC included) and busboy.
const storeBudget = { ms: 60, kb: 600 };
// And every function against the AWS SDK clients it carries, bundled the same way (sdk-floor.ts).
const floorRatio = 1.2;

// A fresh Node process per sample: the time to import the bundle is what a cold start pays
// before the first request (Lambda's own runtime start-up comes on top and is not ours).
export const coldImportMs = (file: string): number => {
  const script = `const t=performance.now();await import(${JSON.stringify(`file://${file}`)});process.stdout.write(String(performance.now()-t))`;
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    }),
  );
};

/**
 * The same import, timed both ways: wall time as above, and the process's CPU time over it (user
 * and system, every thread). On a machine shared with other work the wall time carries the waits
 * for a core; the CPU time is what the import itself costs, and moves far less with the load.
 */
export const coldImport = (file: string): { ms: number; cpuMs: number } => {
  const script = `const c=process.cpuUsage(),t=performance.now();await import(${JSON.stringify(`file://${file}`)});const w=performance.now()-t,u=process.cpuUsage(c);process.stdout.write(JSON.stringify([w,(u.user+u.system)/1000]))`;
  const [ms = Number.NaN, cpuMs = Number.NaN] = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    }),
  ) as number[];
  return { ms, cpuMs };
};

/**
 * Bundles `options`' entry, then imports it and its SDK floor alternately from fresh processes
 * (both meet the machine at the same moment): size, median cold import, the floor's median.
 */
export const measure = async (options: BuildOptions, count = runs): Promise<{ kb: number; ms: number; floorMs?: number }> => {
  const { metafile } = await build({ ...options, metafile: true });
  const file = String(options.outfile);
  const floor = await sdkFloorBundle(metafile, esbuildOptions);
  const samples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(coldImportMs(file));
    if (floor) floorSamples.push(coldImportMs(floor));
  }
  const kb = statSync(file).size / 1024;
  return floor ? { kb, ms: median(samples), floorMs: median(floorSamples) } : { kb, ms: median(samples) };
};

export const row = (name: string, result: { kb: number; ms: number; floorMs?: number }, limit: { ms: number; kb: number }): string[] => {
  const ratio = result.floorMs ? result.ms / result.floorMs : undefined;
  const ok = result.ms <= limit.ms && result.kb <= limit.kb && (ratio === undefined || ratio <= floorRatio) ? 'yes' : '**no**';
  return [
    name,
    result.kb.toFixed(1),
    result.ms.toFixed(1),
    result.floorMs?.toFixed(1) ?? '–',
    ratio?.toFixed(2) ?? '–',
    `${ok}${limit === budget ? '' : ` (${limit.ms} ms, ${limit.kb} KB)`}`,
  ];
};

export const functionsSection = {
  name: 'functions',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    const rows: string[][] = [];
    // The web routes too: deployed beside a web build (the share pages).
    for (const route of [...routes, ...webRoutes]) {
      const result = await measure(esbuildOptions(route.entry, join(outDir, `${functionName(route)}.mjs`)));
      rows.push(
        row(route.generation ? `${route.generation}:${route.operationId}` : route.operationId, result, route.store ? storeBudget : budget),
      );
    }
    // The media function: its codecs stay outside the bundle (node_modules beside it, as deployed)
    // and are loaded on its first event, so the import is the handler's own.
    // The nightly tasks' function is bundled as an API function (infra/cdk/nightly-function.ts).
    for (const fn of eventFunctions) {
      const options = esbuildOptions(fn.entry, join(outDir, `${fn.name}.mjs`));
      const media = fn.name === 'generateMedia';
      rows.push(
        row(
          `${fn.name} (event)`,
          await measure(media ? { ...options, external: [...(options.external ?? []), ...mediaExternalModules] } : options),
          media ? storeBudget : budget,
        ),
      );
    }
    return [
      `Every function bundled exactly as the stack bundles it (infra/cdk/bundling.ts), then imported by ${runs} fresh Node processes each, alternating with its AWS SDK floor: a bundle of only the AWS SDK the function uses (the clients, commands and helpers its modules import), built the same way (test/bench/sdk-floor.ts). Budget: ${budget.ms} ms median and ${budget.kb} KB unless the row names its own, and at most ${floorRatio}× the floor.`,
      '',
      table(['function', 'bundle KB', 'cold import ms (median)', 'SDK floor ms', '× floor', 'within budget'], rows),
    ].join('\n');
  },
};

/**
 * The functions the 3.x mobile app calls in a background backup (docs/benchmarks.md, "The
 * background backup path"), in its order (Immich v3.1 `mobile/lib`: background_worker.service.dart
 * runs the local sync, the remote sync, hashing and the upload of the candidates together):
 * resolving the endpoint (only with endpoint switching on), the sync stream and its acks, then one
 * `POST /assets` per photo. Authentication is each function's own (no authorizer: infra/cdk/route-stack.ts).
 * Then the rows the issue names beside them (the v1.100 app's checksum check, the auth check the
 * app makes in the foreground), and the media function and search, held to 1.2× their floor.
 */
export const backupPath: readonly { id: string; request: string; path: boolean }[] = [
  { id: 'v3:pingServer', request: 'GET /api/server/ping (endpoint switching only)', path: true },
  { id: 'v3:getSyncStream', request: 'POST /api/sync/stream', path: true },
  { id: 'v3:sendSyncAck', request: 'POST /api/sync/ack', path: true },
  { id: 'v3:uploadAsset', request: 'POST /api/assets', path: true },
  { id: 'v3:checkBulkUpload', request: 'POST /api/assets/bulk-upload-check (v1.100 app; 3.x compares synced checksums)', path: false },
  { id: 'v3:getMyUser', request: 'GET /api/users/me (foreground)', path: false },
  { id: 'generateMedia', request: 'the media function (event)', path: false },
  { id: 'search', request: 'GET /api/search', path: false },
  { id: 'searchSmart', request: 'POST /api/search/smart', path: false },
  { id: 'searchMetadata', request: 'POST /api/search/metadata', path: false },
];

/** As `measure`, with the CPU time of each import beside its wall time (`coldImport`). */
const measureBoth = async (options: BuildOptions, count: number) => {
  const { metafile } = await build({ ...options, metafile: true });
  const file = String(options.outfile);
  const floor = await sdkFloorBundle(metafile, esbuildOptions);
  const own: { ms: number; cpuMs: number }[] = [];
  const base: { ms: number; cpuMs: number }[] = [];
  for (let i = 0; i < count; i++) {
    own.push(coldImport(file));
    if (floor) base.push(coldImport(floor));
  }
  return {
    kb: statSync(file).size / 1024,
    ms: median(own.map((s) => s.ms)),
    cpuMs: median(own.map((s) => s.cpuMs)),
    floorMs: floor ? median(base.map((s) => s.ms)) : undefined,
    floorCpuMs: floor ? median(base.map((s) => s.cpuMs)) : undefined,
  };
};

type BackupRow = { row: string[]; path: boolean; ms: number; floorMs: number; cpuMs: number };

/** One function of `backupPath` (or any route or event function by the same name), measured as `measureBoth` does. */
const backupRow = async (id: string, count: number): Promise<BackupRow> => {
  const { request = '', path = false } = backupPath.find((each) => each.id === id) ?? {};
  const route = [...routes, ...webRoutes].find((r) => (r.generation ? `${r.generation}:${r.operationId}` : r.operationId) === id);
  const fn = eventFunctions.find((f) => f.name === id);
  const entry = route?.entry ?? fn?.entry;
  if (!entry) throw new Error(`No function ${id}`);
  const options = esbuildOptions(entry, join(outDir, `${route ? functionName(route) : id}.mjs`));
  const media = id === 'generateMedia';
  const result = await measureBoth(
    media ? { ...options, external: [...(options.external ?? []), ...mediaExternalModules] } : options,
    count,
  );
  const ratio = result.floorCpuMs ? result.cpuMs / result.floorCpuMs : undefined;
  const wallRatio = result.floorMs ? result.ms / result.floorMs : undefined;
  const limit = path ? 0.8 : floorRatio;
  return {
    row: [
      id,
      request,
      result.kb.toFixed(1),
      `${result.cpuMs.toFixed(1)} / ${result.floorCpuMs?.toFixed(1) ?? '–'}`,
      ratio?.toFixed(2) ?? '–',
      `${result.ms.toFixed(1)} / ${result.floorMs?.toFixed(1) ?? '–'}`,
      wallRatio?.toFixed(2) ?? '–',
      ratio === undefined ? '–' : `${ratio <= limit ? 'yes' : '**no**'} (${limit}×)`,
    ],
    path,
    ms: result.ms,
    floorMs: result.floorMs ?? 0,
    cpuMs: result.cpuMs,
  };
};

const backupHeader = [
  'function',
  'request',
  'bundle KB',
  'import CPU ms / floor',
  '× floor (CPU)',
  'import wall ms / floor',
  '× floor (wall)',
  'within',
];

/**
 * What the floor of the backup path is made of, each part bundled as the functions are and
 * imported alternately (docs/benchmarks.md, "The background backup path"): the DynamoDB document
 * client the stream, the ack and the upload read the session with, imported without constructing
 * it (what an import that left the client to the first request would cost), the S3 client the
 * upload adds, and the SDK's own request signer (@smithy/signature-v4, already inside the DynamoDB
 * client), which is all a single signed S3 PUT would need in its place.
 */
const floorParts: readonly { name: string; source: string }[] = [
  { name: 'an empty module', source: 'export const kept = [];' },
  {
    name: 'DynamoDB document client, imported, not constructed',
    source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
export const kept = [DynamoDBClient, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand];`,
  },
  {
    name: "DynamoDB document client, constructed (the stream's and the ack's floor)",
    source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
export const kept = [DynamoDBDocumentClient.from(new DynamoDBClient({})), GetCommand, QueryCommand, UpdateCommand];`,
  },
  {
    name: 'the same and the S3 client (PutObject)',
    source: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
export const kept = [DynamoDBDocumentClient.from(new DynamoDBClient({})), GetCommand, QueryCommand, UpdateCommand, new S3Client({}), PutObjectCommand];`,
  },
  {
    name: "the same with the SDK's signer (SignatureV4) instead of the S3 client",
    source: `import { createHash, createHmac } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignatureV4 } from '@smithy/signature-v4';
class Sha256 {
  constructor(secret) { this.hash = secret ? createHmac('sha256', secret) : createHash('sha256'); }
  update(data) { this.hash.update(data); }
  async digest() { return new Uint8Array(this.hash.digest()); }
}
const credentials = { accessKeyId: 'a', secretAccessKey: 'b' };
export const kept = [DynamoDBDocumentClient.from(new DynamoDBClient({})), GetCommand, QueryCommand, UpdateCommand, new SignatureV4({ service: 's3', region: 'us-east-1', credentials, sha256: Sha256 })];`,
  },
];

const floorPartsTable = async (count: number): Promise<string> => {
  const dir = join(root, '.bench', 'floor-parts');
  mkdirSync(dir, { recursive: true });
  const files = await Promise.all(
    floorParts.map(async ({ source }, index) => {
      writeFileSync(join(dir, `part-${index}.js`), `${source}\n`);
      const out = join(dir, `part-${index}.mjs`);
      // bundling.ts joins the entry onto the repository root.
      await build(esbuildOptions(join('.bench', 'floor-parts', `part-${index}.js`), out));
      return out;
    }),
  );
  const samples = files.map(() => [] as { ms: number; cpuMs: number }[]);
  for (let i = 0; i < count; i++) for (const [index, file] of files.entries()) samples[index]?.push(coldImport(file));
  return table(
    ['bundle', 'KB', 'import CPU ms', 'import wall ms'],
    floorParts.map(({ name }, index) => [
      name,
      (statSync(files[index] ?? '').size / 1024).toFixed(1),
      median((samples[index] ?? []).map((s) => s.cpuMs)).toFixed(1),
      median((samples[index] ?? []).map((s) => s.ms)).toFixed(1),
    ]),
  );
};

/** `npm run bench -- backup`: the backup path's functions alone, with more runs (BACKUP_RUNS, default 30). */
export const backupSection = {
  name: 'backup',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    const count = Number(process.env.BACKUP_RUNS ?? 30);
    const measured: BackupRow[] = [];
    for (const { id } of backupPath) measured.push(await backupRow(id, count));
    const onPath = measured.filter((each) => each.path);
    const sum = (pick: (each: BackupRow) => number) => onPath.reduce((total, each) => total + pick(each), 0);
    return [
      `Each function bundled as the stack bundles it, imported by ${count} fresh Node processes alternating with its AWS SDK floor (test/bench/sdk-floor.ts); medians of the import's CPU time (what it costs, whatever else the machine runs) and of its wall time. The backup path's rows are held to 0.8× their floor, the others to ${floorRatio}× (CPU time).`,
      '',
      table(
        backupHeader,
        measured.map((each) => each.row),
      ),
      '',
      `The backup path's cold imports together (ping, stream, ack, upload, each function cold once): ${sum((each) => each.cpuMs).toFixed(0)} ms of CPU, ${sum((each) => each.ms).toFixed(0)} ms of wall time (their floors ${sum((each) => each.floorMs).toFixed(0)} ms), ${((sum((each) => each.ms) / 30_000) * 100).toFixed(2)}% of iOS's ~30 s background task.`,
      '',
      `What the floor is made of (${count} alternating imports of each):`,
      '',
      await floorPartsTable(count),
    ].join('\n');
  },
};

/**
 * `node test/bench/functions.ts v3:uploadAsset search …`: those functions' rows alone (BACKUP_RUNS
 * imports each, default 30), printed, not written to docs/: deciding a row near its limit over
 * more runs than the whole section can afford.
 */
if (import.meta.main) {
  const count = Number(process.env.BACKUP_RUNS ?? 30);
  const rows: string[][] = [];
  for (const id of process.argv.slice(2)) {
    rows.push((await backupRow(id, count)).row);
    console.log(`| ${rows.at(-1)?.join(' | ')} |`);
  }
  console.log(
    `\n_${count} alternating imports each, Node ${process.version}, ${process.arch}, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}._\n\n${table(backupHeader, rows)}`,
  );
}
