/**
 * Machine learning, one interface over two back ends (docs/machine-learning.md):
 * - remote: the user's Immich ML service(s) (shared/ml/remote.ts), when machine learning is on and
 *   `urls` holds a URL other than Immich's placeholder default;
 * - local: ONNX models run in this process (local/clip.ts and local/ocr.ts beside this file);
 *   onnxruntime, the tokenizer and the OCR weights, outside every bundle, are loaded only when a
 *   model first runs, so a function that never runs one never loads them.
 * The choice, per task (shared/ml/features.ts, which the features routes load without this module):
 * CLIP → remote if set, else local if the model folder for `clip.modelName` exists, else none
 * (smart search off); OCR → remote if set, else local. Duplicates need no model (a perceptual
 * hash; CLIP neighbours are added where embeddings exist). A search query's embedding is
 * shared/ml/text.ts's (re-exported here), which smart search imports alone. The local modules are
 * imported statically (docs/benchmarks.md, "Machine learning's split").
 */
import { Invalid } from '../core/errors.ts';
import { type MlSettings, ocrEnabled, remoteConfigured } from './features.ts';
import { encodeImageLocal } from './local/clip.ts';
import { detectTextLocal, type OcrLine } from './local/ocr.ts';
import { detectTextRemote, encodeImageRemote } from './remote.ts';
import { localClipReady, smartSearchOff } from './text.ts';

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
export type { LocalOcrOptions, OcrLine } from './local/ocr.ts';
export { encodeText } from './text.ts';

/** CLIP image embedding of a preview JPEG (unnormalised as the model gives it; callers normalise). */
export const encodeImage = async (ml: MlSettings, jpeg: Buffer): Promise<Float32Array> => {
  if (!ml.enabled || !ml.clip.enabled) throw smartSearchOff();
  if (remoteConfigured(ml)) return encodeImageRemote(ml, jpeg);
  if (!(await localClipReady(ml))) throw smartSearchOff();
  return encodeImageLocal(ml.clip.modelName, jpeg);
};

/** The text lines of a preview JPEG. */
export const detectText = async (ml: MlSettings, jpeg: Buffer): Promise<OcrLine[]> => {
  if (!ocrEnabled(ml)) throw new Invalid('OCR is not enabled');
  if (remoteConfigured(ml)) return detectTextRemote(ml, jpeg);
  const { minDetectionScore, minRecognitionScore, maxResolution } = ml.ocr;
  return detectTextLocal(jpeg, { minDetectionScore, minRecognitionScore, maxResolution });
};
