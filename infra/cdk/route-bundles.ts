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
 * A function outside the stack's nested route stacks (a test's one function in a stack of its
 * own) gets its own run with its entry point alone instead of every route's.
 */
const bundled = new Map<string, string>();
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

/** One esbuild run for the rows not bundled yet; each bundle at `<dir>/<function name>/index.mjs`. */
const bundle = (rows: readonly Route[]): void => {
  const missing = rows.filter((route) => !bundled.has(functionName(route)));
  if (missing.length === 0) return;
  const dir = temporary('immich-routes-');
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions(missing[0]?.entry ?? '', join(dir, 'probe.mjs'));
  const result = buildSync({
    ...options,
    entryPoints: Object.fromEntries(missing.map((route) => [`${functionName(route)}/index`, join(root, route.entry)])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
  });
  if (result.errors.length > 0) throw new Error(`Bundling the routes failed: ${result.errors.map((error) => error.text).join('; ')}`);
  for (const route of missing) bundled.set(functionName(route), join(dir, functionName(route)));
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
  // The stack's routes are all in its nested route stacks: the first of them bundles every route.
  if (!bundled.has(name)) bundle(Stack.of(scope).nested ? [...routes, ...webRoutes] : [route]);
  const from = bundled.get(name);
  if (!from) throw new Error(`No bundle for ${name}`);
  // Its own folder: the bundle, then the files its row names.
  const dir = join(from, '..', 'assets', name);
  copyBesideNow(
    [
      { from: join(from, 'index.mjs'), to: 'index.mjs' },
      ...lazyModuleFiles(route.lazy ?? []),
      ...(route.realtime ? realtimeClientFiles() : []),
      ...(webIndex ? [{ from: webIndex, to: 'index.html' }] : []),
    ],
    dir,
  );
  return Code.fromAsset(dir);
};
