import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';

const root = join(import.meta.dirname, '..');
const nodeHttpShim = join(root, 'shared', 'runtime', 'node-http.ts');

/**
 * How every function is bundled. The stack (NodejsFunction) and `npm run bench` both derive
 * their esbuild settings from this one object, so what is measured is what is deployed.
 */
export const bundling = {
  format: 'esm',
  target: 'node24',
  minify: true,
  sourceMap: false,
  // ESM builds of dependencies tree-shake better and load faster than their CJS builds.
  mainFields: ['module', 'main'],
  // Bundled CJS code may still call require(); give it one.
  banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  alias: { 'node:http': nodeHttpShim },
} as const;

/** The same settings as esbuild build options, for the bench. */
export const esbuildOptions = (entry: string, outfile: string): BuildOptions => ({
  entryPoints: [join(root, entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: bundling.format,
  target: bundling.target,
  minify: bundling.minify,
  sourcemap: bundling.sourceMap,
  mainFields: [...bundling.mainFields],
  banner: { js: bundling.banner },
  alias: { ...bundling.alias },
  logLevel: 'silent',
});
