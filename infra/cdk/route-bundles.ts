import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssetHashType, Stack } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { functionName, type Route, routes, webRoutes } from '../routes.ts';
import { copyBesideNow, esbuildOptions, lazyModuleFiles, realtimeClientFiles } from './bundling.ts';

const root = join(import.meta.dirname, '..', '..');

/**
 * Every route's bundle, built once per synth in ONE esbuild run with an entry point per route
 * (docs/deployment.md, "Bundling"): esbuild parses each shared module (the AWS SDK, valibot, the
 * core) once for all of them and uses every core, where a NodejsFunction per route spawned
 * esbuild ~340 times, each parsing the SDK again (2.5 minutes on a quiet 2-core machine, over 5
 * on a busy one; one run: 12 s). The options are the bench's (`esbuildOptions`), so what is
 * measured is what is deployed. Built into a temporary folder, once per process, which goes
 * when the process ends: each function's asset is copied into the cloud assembly as it is made.
 */
let built: string | undefined;
let unbundled: string | undefined;

const temporary = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

const emptyBundle = (): string => {
  const dir = temporary('immich-unbundled-');
  writeFileSync(join(dir, 'index.mjs'), '');
  return dir;
};

const bundleAll = (): string => {
  const all = [...routes, ...webRoutes];
  const dir = temporary('immich-routes-');
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions(all[0]?.entry ?? '', join(dir, 'probe.mjs'));
  const result = buildSync({
    ...options,
    entryPoints: Object.fromEntries(all.map((route) => [`${functionName(route)}/index`, join(root, route.entry)])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
  });
  if (result.errors.length > 0) throw new Error(`Bundling the routes failed: ${result.errors.map((error) => error.text).join('; ')}`);
  return dir;
};

/**
 * A route's code: its bundle with what its row copies beside it (the modules it loads on first
 * use, the management API's client of a route that tells apps of changes, a web build's
 * `index.html`). Without bundling (`aws:cdk:bundling-stacks`, the infrastructure tests), an empty
 * asset named after the route, as NodejsFunction skips its bundling then.
 */
export const routeCode = (scope: Construct, route: Route, webIndex?: string): Code => {
  const name = functionName(route);
  if (!Stack.of(scope).bundlingRequired) {
    unbundled ??= emptyBundle();
    return Code.fromAsset(unbundled, { assetHashType: AssetHashType.CUSTOM, assetHash: name });
  }
  built ??= bundleAll();
  // Its own folder: the bundle, then the files its row names.
  const dir = join(built, 'assets', name);
  copyBesideNow(
    [
      { from: join(built, name, 'index.mjs'), to: 'index.mjs' },
      ...lazyModuleFiles(route.lazy ?? []),
      ...(route.realtime ? realtimeClientFiles() : []),
      ...(webIndex ? [{ from: webIndex, to: 'index.html' }] : []),
    ],
    dir,
  );
  return Code.fromAsset(dir);
};
