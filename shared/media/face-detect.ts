/**
 * Faces found in an image, with no machine-learning service (docs/faces.md): face-api's
 * SSD-MobileNetV1 detector, its 68-point landmarks to align each face, and its recognition net's
 * 128-number descriptor, on TensorFlow.js's WebAssembly backend. The runtime (code, WebAssembly and
 * models, 13.5 MB) is built at install time into node_modules/.faces/ (infra/tools/faces-bundle.ts)
 * and the stack ships it beside the media function's bundle; it is loaded on first use (about
 * 0.3 s), so no other work of the function pays for it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { facesDirSetting, lambdaTaskRoot } from '../core/env.ts';

/** The runtime's folder: `FACES_DIR`; in a Lambda function the one beside its bundle and no other; elsewhere the project's. */
export const facesDir = (): string | undefined => {
  const set = facesDirSetting();
  if (set) return set;
  const taskRoot = lambdaTaskRoot();
  if (taskRoot) {
    const folder = join(taskRoot, 'node_modules', '.faces');
    return existsSync(join(folder, 'faces.mjs')) ? folder : undefined;
  }
  for (let folder = import.meta.dirname; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', '.faces');
    if (existsSync(join(candidate, 'faces.mjs'))) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
};

/** A face as found: its box in the pixels of the image it was found in, the detector's score, its descriptor. */
export interface DetectedFace {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  score: number;
  descriptor: Float32Array;
}

/** An image as 8-bit RGB pixels, row by row. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

// What the runtime's module exports (infra/tools/faces-bundle.ts); typed as much as this module uses.
interface FaceApi {
  tf: {
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
  };
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet', { loadFromDisk(folder: string): Promise<void> }>;
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): {
    withFaceLandmarks(): {
      withFaceDescriptors(): Promise<
        { detection: { score: number; box: { x: number; y: number; width: number; height: number } }; descriptor: Float32Array }[]
      >;
    };
  };
}
interface FacesRuntime {
  faceapi: FaceApi;
  setWasmPaths(prefix: string): void;
}

let loaded: Promise<FaceApi> | undefined;

const load = async (): Promise<FaceApi> => {
  const folder = facesDir();
  if (!folder) throw new Error('No face model: run `npm run faces-bundle` (npm ci runs it)');
  const runtime = (await import(pathToFileURL(join(folder, 'faces.mjs')).href)) as FacesRuntime;
  const { faceapi } = runtime;
  runtime.setWasmPaths(`${folder}/`);
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  await Promise.all([
    faceapi.nets.ssdMobilenetv1.loadFromDisk(folder),
    faceapi.nets.faceLandmark68Net.loadFromDisk(folder),
    faceapi.nets.faceRecognitionNet.loadFromDisk(folder),
  ]);
  return faceapi;
};

/** The runtime, loaded once per process. */
export const faceModel = (): Promise<FaceApi> => {
  loaded ??= load().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
};

/** At most this many faces a photo (as an upload keeps at most 31 of a file's regions: docs/data-model.md). */
const maxFacesPerPhoto = 30;

/**
 * The faces in an image whose detection score is at least `minScore` (Immich's
 * `facialRecognition.minScore`), the most certain first, at most `maxFacesPerPhoto`.
 */
export const detectFaces = async (image: RgbImage, minScore: number): Promise<DetectedFace[]> => {
  const faceapi = await faceModel();
  const input = faceapi.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence: minScore, maxResults: maxFacesPerPhoto }))
      .withFaceLandmarks()
      .withFaceDescriptors();
    return found
      .map(({ detection: { score, box }, descriptor }) => ({
        x1: Math.max(0, Math.round(box.x)),
        y1: Math.max(0, Math.round(box.y)),
        x2: Math.min(image.width, Math.round(box.x + box.width)),
        y2: Math.min(image.height, Math.round(box.y + box.height)),
        score,
        descriptor,
      }))
      .sort((a, b) => b.score - a.score);
  } finally {
    input.dispose();
  }
};
