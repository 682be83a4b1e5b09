import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { eventFunctions, routes, webRoutes } from '#infra/routes.ts';
import { median, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.bench', 'bundles');
const runs = 20;
const budget = { ms: 40, kb: 400 };
// Functions with originals-store access carry the S3 client (~200 KB with its XML and checksum
// layers); the upload function also exifr (~75 KB, XMP and IPTC included) and busboy.
const storeBudget = { ms: 60, kb: 600 };

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

export const functionsSection = {
  name: 'functions',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    const rows: (string | number)[][] = [];
    // The web routes too: deployed beside a web build (the share pages).
    for (const route of [...routes, ...webRoutes]) {
      const file = join(outDir, `${route.operationId}.mjs`);
      await build(esbuildOptions(route.entry, file));
      const kb = statSync(file).size / 1024;
      const samples = Array.from({ length: runs }, () => coldImportMs(file));
      const ms = median(samples);
      const limit = route.store ? storeBudget : budget;
      const ok = ms <= limit.ms && kb <= limit.kb ? 'yes' : '**no**';
      rows.push([route.operationId, kb.toFixed(1), ms.toFixed(1), `${ok}${limit === budget ? '' : ` (${limit.ms} ms, ${limit.kb} KB)`}`]);
    }
    // The media function: its codecs stay outside the bundle (node_modules beside it, as deployed)
    // and are loaded on its first event, so the import is the handler's own.
    for (const fn of eventFunctions) {
      const file = join(outDir, `${fn.name}.mjs`);
      await build({ ...esbuildOptions(fn.entry, file), external: mediaExternalModules });
      const kb = statSync(file).size / 1024;
      const ms = median(Array.from({ length: runs }, () => coldImportMs(file)));
      const ok = ms <= storeBudget.ms && kb <= storeBudget.kb ? 'yes' : '**no**';
      rows.push([`${fn.name} (event)`, kb.toFixed(1), ms.toFixed(1), `${ok} (${storeBudget.ms} ms, ${storeBudget.kb} KB)`]);
    }
    return [
      `Every function bundled exactly as the stack bundles it (infra/cdk/bundling.ts), then imported by ${runs} fresh Node processes each; budget ${budget.ms} ms median and ${budget.kb} KB unless the row names its own.`,
      '',
      table(['function', 'bundle KB', 'cold import ms (median)', 'within budget'], rows),
    ].join('\n');
  },
};
