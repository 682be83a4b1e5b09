/**
 * Builds the face model's runtime (docs/faces.md) into node_modules/.faces/, never committed:
 * - `faces.mjs`: `@vladmandic/face-api` (MIT) with TensorFlow.js core and its WebAssembly backend
 *   (Apache-2.0), bundled by esbuild into one minified ES module. face-api's unbundled build
 *   imports all of `@tensorflow/tfjs` and the WebGL backend; here its imports are pointed at the
 *   core and the WebAssembly backend alone, which is all it calls in Node;
 * - the backend's three WebAssembly builds (plain, SIMD, threaded SIMD: the backend picks one);
 * - face-api's three models (weights and manifests): SSD-MobileNetV1 (the detector), the 68-point
 *   landmarks (to align a face) and the ResNet-34-like recognition net (a 128-number descriptor).
 *
 * The media function loads it on first use (shared/media/face-detect.ts), from beside its bundle
 * deployed (lazy group `faces`, infra/cdk/bundling.ts) and from node_modules elsewhere. Built again
 * when a source's version or this builder changes. Run by `npm ci` / `npm install` (postinstall),
 * `npm run faces-bundle` and the bench (`npm run bench -- faces`).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');
const modules = join(root, 'node_modules');

/** Where the runtime is written: the folder the media function reads (shared/media/face-detect.ts). */
export const facesDir = join(modules, '.faces');

const sourcePackages = ['@vladmandic/face-api', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm'] as const;

/** The models face-api reads with `loadFromDisk` (its manifest, then its weights). */
export const faceModels = ['ssd_mobilenetv1_model', 'face_landmark_68_model', 'face_recognition_model'] as const;

/** The backend's WebAssembly builds. */
export const wasmFiles = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'] as const;

/** Every file of the runtime, relative to its folder (what the stack copies beside a bundle). */
export const facesFiles: readonly string[] = [
  'faces.mjs',
  'LICENSES.txt',
  ...wasmFiles,
  ...faceModels.flatMap((model) => [`${model}-weights_manifest.json`, `${model}.bin`]),
];

const version = (name: string): string =>
  (JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version: string }).version;

// The module face-api's unbundled build imports, and what each becomes here.
const entry = [
  // face-api calls tensors' chained ops (`t.as3D()`), which tfjs-core registers only when asked.
  "import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops.js';",
  "export * as faceapi from '@vladmandic/face-api/dist/face-api.esm-nobundle.js';",
  "export { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';",
].join('\n');

/** Builds the runtime unless the one there was built from the same sources; its folder. */
export const buildFacesBundle = async (options: { force?: boolean; quiet?: boolean } = {}): Promise<string> => {
  const sources = sourcePackages.map((name) => `${name}@${version(name)}`);
  const builder = createHash('sha1')
    .update(readFileSync(import.meta.filename))
    .digest('hex');
  const current = `${builder} ${sources.join(' ')}`;
  const stamp = join(facesDir, '.sources');
  if (
    !options.force &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === current &&
    facesFiles.every((file) => existsSync(join(facesDir, file)))
  )
    return facesDir;
  const started = performance.now();
  rmSync(facesDir, { recursive: true, force: true });
  mkdirSync(facesDir, { recursive: true });
  const empty = join(facesDir, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  await build({
    stdin: { contents: entry, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    minify: true,
    legalComments: 'none',
    outfile: join(facesDir, 'faces.mjs'),
    // Bundled CommonJS code may still call require(), and the backend's loader reads __dirname; give it both.
    banner: {
      js: "import{createRequire as __cr}from'node:module';import{fileURLToPath as __fu}from'node:url';import{dirname as __dn}from'node:path';const require=__cr(import.meta.url);const __filename=__fu(import.meta.url);const __dirname=__dn(__filename);",
    },
    alias: {
      '@tensorflow/tfjs/dist/index.js': '@tensorflow/tfjs-core',
      '@tensorflow/tfjs-backend-wasm/dist/index.js': '@tensorflow/tfjs-backend-wasm',
      '@tensorflow/tfjs-backend-webgl/dist/index.js': empty,
      // tfjs-core's Node platform falls back to node-fetch where there is no global fetch; Node 24 has one.
      'node-fetch': empty,
    },
    mainFields: ['module', 'main'],
    logLevel: 'error',
  });
  rmSync(empty);
  for (const file of wasmFiles) copyFileSync(join(modules, '@tensorflow', 'tfjs-backend-wasm', 'dist', file), join(facesDir, file));
  for (const model of faceModels)
    for (const file of [`${model}-weights_manifest.json`, `${model}.bin`])
      copyFileSync(join(modules, '@vladmandic', 'face-api', 'model', file), join(facesDir, file));
  // The licences of what the runtime bundles, beside it: each package's licence, and its text where it ships one.
  writeFileSync(
    join(facesDir, 'LICENSES.txt'),
    [...sourcePackages, '@tensorflow/tfjs-backend-cpu', 'long', 'seedrandom']
      .map((name) => {
        const { version: at, license } = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as {
          version: string;
          license: string;
        };
        const text = join(modules, name, 'LICENSE');
        return `${name}@${at}: ${license}${existsSync(text) ? `\n\n${readFileSync(text, 'utf8')}` : ''}`;
      })
      .join('\n\n----\n\n'),
  );
  writeFileSync(stamp, current);
  if (!options.quiet) {
    const size = facesFiles.reduce((sum, file) => sum + readFileSync(join(facesDir, file)).length, 0);
    console.log(`faces-bundle: ${(size / 1024 / 1024).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms → ${facesDir}`);
  }
  return facesDir;
};

if (import.meta.main) await buildFacesBundle({ force: process.argv.includes('--force') });
