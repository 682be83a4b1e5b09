import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { eventFunctions, routes } from '#infra/routes.ts';
import { sdkImportsOf } from '../bench/sdk-floor.ts';

/**
 * What a cold start evaluates (docs/benchmarks.md, "The background backup path"): a function's
 * bundle, built as the stack builds it, imported by a fresh Node process that reports the Node
 * modules the import loaded. A module a rare branch needs is loaded by that branch, not here.
 */
// Inside the project, as the bench builds them: the media function's codecs (external, loaded on its
// first event) resolve from node_modules, as they do beside its deployed bundle.
const root = join(import.meta.dirname, '..', '..');
mkdirSync(join(root, '.bench'), { recursive: true });
const out = mkdtempSync(join(root, '.bench', 'bundle-cold-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The media function's bundle, as infra/cdk/media-function.ts builds it, and the modules outside it that it imports statically. */
const mediaBundle = async (): Promise<{ file: string; staticImports: string[] }> => {
  const media = eventFunctions.find((fn) => fn.name === 'generateMedia');
  if (!media) throw new Error('No media function');
  const file = join(out, 'media.mjs');
  const options = esbuildOptions(media.entry, file);
  const { metafile } = await build({ ...options, external: [...(options.external ?? []), ...mediaExternalModules], metafile: true });
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  return { file, staticImports: imports.filter(({ external, kind }) => external && kind === 'import-statement').map(({ path }) => path) };
};

/** Node's own modules a fresh process loads while importing `file` (and nothing else). */
const nodeModulesLoadedBy = (file: string): string[] => {
  const script = `const before=new Set(process.moduleLoadList);await import(${JSON.stringify(pathToFileURL(file).href)});process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m)=>!before.has(m)&&m.startsWith('NativeModule ')).map((m)=>m.slice(13))))`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, TABLE_NAME: 'bundle-cold', AWS_REGION: 'us-east-1', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[];
};

describe('cold imports', () => {
  it('the media function loads node:child_process on its first video and node:worker_threads with its codecs, not at its cold start', async () => {
    const loaded = nodeModulesLoadedBy((await mediaBundle()).file);
    // The list is the import's own: the SDK's HTTPS client is in it.
    expect(loaded).toContain('https');
    expect(loaded).not.toContain('child_process');
    expect(loaded).not.toContain('internal/child_process');
    // Nor node:worker_threads, which the HEIC decoder's pool and wasm-vips load when they start.
    expect(loaded).not.toContain('worker_threads');
  });

  it("the media function imports its codecs' JavaScript (wasm-vips) with their WebAssembly, on its first event", async () => {
    const { staticImports } = await mediaBundle();
    // Node's own modules only (node:…): no package beside the bundle is parsed at its cold start.
    expect(staticImports.filter((path) => !path.startsWith('node:'))).toEqual([]);
    expect(staticImports).not.toContain('node:child_process');
  });

  it('judges a function against the SDK its bundle carries: not a client of a module tree-shaking dropped whole', async () => {
    const upload = routes.find((route) => route.generation === 'v3' && route.operationId === 'uploadAsset');
    if (!upload) throw new Error('No v3 uploadAsset');
    const { metafile } = await build({ ...esbuildOptions(upload.entry, join(out, 'upload.mjs')), write: false, metafile: true });
    // shared/storage/media-jobs.ts is reached (its module is in the metafile), but none of its code is in the bundle.
    expect(Object.keys(metafile.inputs)).toContain('shared/storage/media-jobs.ts');
    const bundled = JSON.stringify(Object.values(metafile.outputs).map((output) => Object.keys(output.inputs)));
    expect(bundled).not.toContain('@aws-sdk/client-lambda');
    const floor = sdkImportsOf(metafile);
    expect(floor.has('@aws-sdk/client-lambda')).toBe(false);
    expect(floor.get('@aws-sdk/client-s3')?.has('S3Client')).toBe(true);
    expect(floor.get('@aws-sdk/client-dynamodb')?.has('DynamoDBClient')).toBe(true);
  });
});
