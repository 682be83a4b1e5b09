import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { esbuildOptions, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { buildFacesBundle, facesDir, facesFiles } from '#infra/tools/faces-bundle.ts';
import { descriptorLength, encodeDescriptors } from '#shared/domain/faces.ts';
import { measure } from './functions.ts';
import { median, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.bench', 'faces');
const runs = 5;

/**
 * A fresh process: the runtime loaded as the media function loads it on its first photo, then
 * faces detected in the test photos (the group photo at Immich's preview size, and portraits),
 * each photo decoded from its JPEG first as the media function does with the preview.
 */
const detectScript = `
const { readFileSync } = await import('node:fs');
const { decodeRgb } = await import(${JSON.stringify(join(root, 'shared/media/images.ts'))});
const { detectFaces, faceModel } = await import(${JSON.stringify(join(root, 'shared/media/face-detect.ts'))});
const { portrait, groupPhotoPath } = await import(${JSON.stringify(join(root, 'test/support/people-photos.ts'))});
const photos = [readFileSync(groupPhotoPath), ...(await Promise.all([['ana', 0], ['bea', 2], ['cy', 1]].map(async ([p, v]) => (await portrait(p, v)).data)))];
await decodeRgb(photos[1]);
const rssBefore = process.memoryUsage().rss / 1024 / 1024;
let t = performance.now();
await faceModel();
const load = performance.now() - t;
const times = [];
let faces = 0;
for (const photo of [...photos, ...photos]) {
  t = performance.now();
  const found = await detectFaces(await decodeRgb(photo), 0.7);
  times.push(performance.now() - t);
  faces += found.length;
}
// libvips' and the backend's worker threads keep a process alive: it ends when its answer is out.
process.stdout.write(JSON.stringify({ load, first: times[0], group: times[4], portrait: (times[5] + times[6] + times[7]) / 3, faces: faces / 2, rssBefore, peak: process.resourceUsage().maxRSS / 1024 }), () => process.exit(0));
`;

/** A recognition's nearest-neighbour pass over `n` faces of the owner's index (half floats, as stored). */
const clustering = (n: number) => {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  const descriptors = Array.from({ length: n }, () => Float32Array.from({ length: descriptorLength }, () => random() * 0.3));
  const bytes = encodeDescriptors(descriptors);
  const data = join(outDir, `descriptors-${n}.bin`);
  writeFileSync(data, bytes);
  const script = join(outDir, `cluster-${n}.mjs`);
  writeFileSync(
    script,
    `
const { readFileSync } = await import('node:fs');
const { decodeDescriptors, faceDistance } = await import(${JSON.stringify(join(root, 'shared/domain/faces.ts'))});
const bytes = readFileSync(${JSON.stringify(data)});
let t = performance.now();
const all = decodeDescriptors(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
const decode = performance.now() - t;
const self = all[0];
const passes = [];
for (let k = 0; k < 7; k++) {
  t = performance.now();
  let near = 0;
  for (const other of all) if (faceDistance(self, other) <= 0.5) near++;
  passes.push(performance.now() - t);
}
passes.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ decode, pass: passes[3] }));
`,
  );
  const result = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8' })) as { decode: number; pass: number };
  return { ...result, bytes: bytes.byteLength };
};

/**
 * `npm run bench -- faces`: face detection and recognition (docs/faces.md): the runtime's size and
 * build, its load (the first photo's extra time in a media function), the time and memory a photo
 * takes, the media function's bundle with the step, and a recognition's nearest-neighbour pass
 * over 1,000, 10,000 and 50,000 faces of one owner.
 */
export const facesSection = {
  name: 'faces',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    let started = performance.now();
    await buildFacesBundle({ force: true, quiet: true });
    const buildMs = performance.now() - started;
    const size = (file: string) => statSync(join(facesDir, file)).size;
    const runtimeBytes = facesFiles.reduce((sum, file) => sum + size(file), 0);
    started = performance.now();
    // A file, not \`-e\`: libvips' workers start from the script's own URL.
    const script = join(outDir, 'detect.mjs');
    writeFileSync(script, detectScript);
    const samples = Array.from({ length: runs }, () =>
      JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 120_000 })),
    );
    const pick = (get: (sample: (typeof samples)[number]) => number) => median(samples.map(get));
    const options = esbuildOptions('functions/media/generate-media.ts', join(outDir, 'generate-media.mjs'));
    // As the stack bundles it: the lazy modules and the codecs stay outside.
    const media = await measure({ ...options, external: [...(options.external ?? []), ...mediaExternalModules] });
    const scale = [1_000, 10_000, 50_000].map((n) => ({ n, ...clustering(n) }));
    const photoSeconds = pick((s) => s.group) / 1000;
    // Lambda arm64 price per GB-second (us-east-1), the media function's 3,584 MB.
    const gbSecond = 0.0000133334;
    const perThousand = 1000 * photoSeconds * 3.5 * gbSecond;

    return [
      `The runtime is built at \`npm ci\` (postinstall) and here. Detection times are medians of ${runs} fresh Node processes on this machine (${process.arch}), each photo decoded from its JPEG first; the group photo is 1920 × 1280 (the size of its preview: it is smaller than Immich's 1440-pixel preview side), the portraits 700 to 1000 pixels wide.`,
      '',
      table(
        ['what', 'value'],
        [
          [
            'runtime (node_modules/.faces)',
            `${(runtimeBytes / 1024 / 1024).toFixed(1)} MB: faces.mjs ${(size('faces.mjs') / 1024).toFixed(0)} KB, WebAssembly ${((size('tfjs-backend-wasm.wasm') + size('tfjs-backend-wasm-simd.wasm') + size('tfjs-backend-wasm-threaded-simd.wasm')) / 1024).toFixed(0)} KB, models ${((size('ssd_mobilenetv1_model.bin') + size('face_landmark_68_model.bin') + size('face_recognition_model.bin')) / 1024 / 1024).toFixed(1)} MB`,
          ],
          ['building it (esbuild, copies)', `${(buildMs / 1000).toFixed(1)} s`],
          [
            'loading it: code, WebAssembly backend, three models (a cold media function’s first photo)',
            `${pick((s) => s.load).toFixed(0)} ms`,
          ],
          ['the first photo after loading (the group photo: 3 faces)', `${pick((s) => s.first).toFixed(0)} ms`],
          ['a group photo, warm (3 faces)', `${pick((s) => s.group).toFixed(0)} ms`],
          ['a portrait, warm (1 face)', `${pick((s) => s.portrait).toFixed(0)} ms`],
          ['faces found in the 4 photos (score ≥ 0.7)', `${pick((s) => s.faces)}`],
          [
            'memory: the process before the model, and its peak',
            `${pick((s) => s.rssBefore).toFixed(0)} MB, ${pick((s) => s.peak).toFixed(0)} MB`,
          ],
          [
            'Lambda time per 1,000 photos like the group photo (3,584 MB arm64, at this machine’s speed)',
            `${(photoSeconds * 1000).toFixed(0)} s, $${perThousand.toFixed(3)}`,
          ],
        ],
      ),
      '',
      `The media function's bundle with the faces step (the runtime is loaded on the first photo, never at import): ${media.kb.toFixed(1)} KB, cold import ${media.ms.toFixed(1)} ms (SDK floor ${media.floorMs?.toFixed(1) ?? '–'} ms).`,
      '',
      "A recognition compares the new face with every face of the owner's index, held in memory as half floats (the entries a process has read are kept: only new ones are read):",
      '',
      table(
        ['faces of one owner', 'index bytes (descriptors)', 'decoding them', 'one nearest-neighbour pass (median of 7)'],
        scale.map(({ n, bytes, decode, pass }) => [
          n.toLocaleString('en'),
          `${(bytes / 1024 / 1024).toFixed(1)} MB`,
          `${decode.toFixed(2)} ms`,
          `${pass.toFixed(1)} ms`,
        ]),
      ),
    ].join('\n');
  },
};
