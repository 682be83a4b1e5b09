/**
 * Machine learning, one interface over two back ends (docs/machine-learning.md):
 * - remote: the user's Immich ML service(s) (shared/ml/remote.ts), when machine learning is on and
 *   `urls` holds a URL other than Immich's placeholder default;
 * - local: ONNX models run in this process (local/clip.ts and local/ocr.ts beside this file),
 *   loaded only when first needed, so a function that never runs a model never loads onnxruntime.
 * The choice, per task (shared/ml/features.ts, which the features routes load without this module):
 * CLIP → remote if set, else local if the model folder for `clip.modelName` exists, else none (smart search off); OCR → remote if set, else local. Duplicates need no model
 * (a perceptual hash; CLIP neighbours are added where embeddings exist).
 */
import { DomainError, Invalid } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { type MlSettings, ocrEnabled, remoteConfigured } from './features.ts';
import { detectTextRemote, encodeImageRemote, encodeTextRemote } from './remote.ts';

// What is available, decided without loading a model (the features routes import features.ts alone).
export {
  type ClipBackend,
  clipBackend,
  duplicateDetectionEnabled,
  type MlFeatures,
  type MlSettings,
  mlFeatures,
  ocrEnabled,
  smartSearchEnabled,
} from './features.ts';

/** OCR result of one text line: box corners 0–1 of the image, clockwise from top-left (Immich's). */
export interface OcrLine {
  text: string;
  box: [number, number, number, number, number, number, number, number];
  boxScore: number;
  textScore: number;
}

/** What local/clip.ts exports: CLIP from an Immich-layout model folder. */
export interface LocalClipModule {
  localClipAvailable(modelName: string): Promise<boolean>;
  encodeImageLocal(modelName: string, jpeg: Buffer): Promise<Float32Array>;
  encodeTextLocal(modelName: string, text: string): Promise<Float32Array>;
}

/** Immich's OCR options, as the local detector takes them. */
export interface LocalOcrOptions {
  minDetectionScore: number;
  minRecognitionScore: number;
  maxResolution: number;
}

/** What local/ocr.ts exports: PP-OCR detection and recognition. */
export interface LocalOcrModule {
  detectTextLocal(jpeg: Buffer, options: LocalOcrOptions): Promise<OcrLine[]>;
}

/**
 * The local modules, imported when first needed. Each import names its file, so a bundler sees it
 * and the local back end ships with the functions that use this module. A module that cannot be
 * loaded (not built into this bundle, or its native runtime missing) makes that back end
 * unavailable rather than failing the request; the reason is logged once.
 */
let clipModule: Promise<LocalClipModule | undefined> | undefined;
let ocrModule: Promise<LocalOcrModule | undefined> | undefined;

const unavailable = (backend: string) => (error: unknown) => {
  log.warn('A local machine-learning back end could not be loaded', { backend, error: String(error) });
  return undefined;
};

const loadClip = (): Promise<LocalClipModule | undefined> => {
  // biome-ignore lint/suspicious/noTsIgnore: the file is another module's (docs/machine-learning.md, "The local back end"); until it exists the import fails at run time and the back end is unavailable, once it does this is a plain import (an expect-error would then fail).
  // @ts-ignore
  clipModule ??= import('./local/clip.ts').then((module) => module as LocalClipModule, unavailable('clip'));
  return clipModule;
};

const loadOcr = (): Promise<LocalOcrModule | undefined> => {
  // biome-ignore lint/suspicious/noTsIgnore: as in loadClip.
  // @ts-ignore
  ocrModule ??= import('./local/ocr.ts').then((module) => module as LocalOcrModule, unavailable('ocr'));
  return ocrModule;
};

/** The local CLIP module when the model for `modelName` is there; undefined when it is not or the module cannot be loaded. */
const localClip = async (modelName: string): Promise<LocalClipModule | undefined> => {
  const module = await loadClip();
  if (!module) return undefined;
  try {
    return (await module.localClipAvailable(modelName)) ? module : undefined;
  } catch (error) {
    log.warn('The local CLIP model could not be checked', { modelName, error: String(error) });
    return undefined;
  }
};

const smartSearchOff = () => new Invalid('Smart search is not enabled');

/** CLIP image embedding of a preview JPEG (unnormalised as the model gives it; callers normalise). */
export const encodeImage = async (ml: MlSettings, jpeg: Buffer): Promise<Float32Array> => {
  if (!ml.enabled || !ml.clip.enabled) throw smartSearchOff();
  if (remoteConfigured(ml)) return encodeImageRemote(ml, jpeg);
  const local = await localClip(ml.clip.modelName);
  if (!local) throw smartSearchOff();
  return local.encodeImageLocal(ml.clip.modelName, jpeg);
};

/** CLIP text embedding of a query. `language`: the caller's (Immich passes it for multilingual models; the local back end ignores it). */
export const encodeText = async (ml: MlSettings, text: string, language?: string): Promise<Float32Array> => {
  if (!ml.enabled || !ml.clip.enabled) throw smartSearchOff();
  if (remoteConfigured(ml)) return encodeTextRemote(ml, text, language);
  const local = await localClip(ml.clip.modelName);
  if (!local) throw smartSearchOff();
  return local.encodeTextLocal(ml.clip.modelName, text);
};

/** The text lines of a preview JPEG. */
export const detectText = async (ml: MlSettings, jpeg: Buffer): Promise<OcrLine[]> => {
  if (!ocrEnabled(ml)) throw new Invalid('OCR is not enabled');
  if (remoteConfigured(ml)) return detectTextRemote(ml, jpeg);
  const local = await loadOcr();
  if (!local) throw new DomainError('upstream', 'The local OCR back end could not be loaded');
  const { minDetectionScore, minRecognitionScore, maxResolution } = ml.ocr;
  return local.detectTextLocal(jpeg, { minDetectionScore, minRecognitionScore, maxResolution });
};
