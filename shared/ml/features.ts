/**
 * What machine learning makes available (docs/machine-learning.md), without running a model: the
 * features routes of both generations load this module alone, so their bundles carry neither
 * onnxruntime nor the tokenizer nor the remote client (test/infra/bundle.test.ts). Smart search is
 * available when the remote back end is set (a URL other than Immich's placeholder) or the local
 * CLIP model's folder is there (shared/ml/local/model-files.ts: under `ML_MODELS_DIR`, or under
 * `models/clip/<model>/` in the bucket `ML_MODELS_BUCKET` names). shared/ml/ml.ts re-exports all of it.
 */
import type { SystemConfig } from '../model/config.ts';
import { modelAvailable } from './local/model-files.ts';

export type MlSettings = SystemConfig['machineLearning'];

export type ClipBackend = 'remote' | 'local';

/** Immich's placeholder default: a docker hostname no Lambda function can reach, so "no URL set". */
export const placeholderUrl = 'http://immich-machine-learning:3003';

/** The URLs a request may go to: `urls` without blanks and Immich's placeholder. */
export const remoteUrls = (ml: MlSettings): string[] =>
  ml.urls.filter((url) => url.trim() !== '' && url.trim().replace(/\/+$/, '') !== placeholderUrl);

/** Whether the remote back end is set: machine learning on and a URL other than the placeholder. */
export const remoteConfigured = (ml: MlSettings): boolean => ml.enabled && remoteUrls(ml).length > 0;

/** Which back end runs CLIP for these settings; undefined: smart search is off. */
export const clipBackend = async (ml: MlSettings): Promise<ClipBackend | undefined> => {
  if (!ml.enabled || !ml.clip.enabled) return undefined;
  if (remoteConfigured(ml)) return 'remote';
  return (await modelAvailable(ml.clip.modelName)) ? 'local' : undefined;
};

/** `features.smartSearch`: machine learning and CLIP on, and a back end to run it. */
export const smartSearchEnabled = async (ml: MlSettings): Promise<boolean> => (await clipBackend(ml)) !== undefined;

/** `features.ocr`: machine learning and OCR on (the local back end is always there). */
export const ocrEnabled = (ml: MlSettings): boolean => ml.enabled && ml.ocr.enabled;

/**
 * `features.duplicateDetection`: the setting alone. Unlike Immich, duplicates do not need CLIP:
 * a perceptual hash finds them (docs/machine-learning.md, "Duplicates").
 */
export const duplicateDetectionEnabled = (ml: MlSettings): boolean => ml.duplicateDetection.enabled;

/** The three features machine learning decides, as both generations' features routes answer them. */
export interface MlFeatures {
  smartSearch: boolean;
  ocr: boolean;
  duplicateDetection: boolean;
}

export const mlFeatures = async (ml: MlSettings): Promise<MlFeatures> => ({
  smartSearch: await smartSearchEnabled(ml),
  ocr: ocrEnabled(ml),
  duplicateDetection: duplicateDetectionEnabled(ml),
});
