import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
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
 * Bundles `options`' entry, then imports it and its SDK floor alternately from fresh processes
 * (both meet the machine at the same moment): size, median cold import, the floor's median.
 */
export const measure = async (options: BuildOptions): Promise<{ kb: number; ms: number; floorMs?: number }> => {
  const { metafile } = await build({ ...options, metafile: true });
  const file = String(options.outfile);
  const floor = await sdkFloorBundle(metafile, esbuildOptions);
  const samples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
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
