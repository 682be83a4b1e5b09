/**
 * A search query's CLIP embedding (docs/machine-learning.md): the remote back end if set, else the
 * local text tower (shared/ml/local/clip-text.ts) when its model folder is there. Apart from
 * shared/ml/ml.ts, which adds the image and OCR tasks: smart search's functions import this
 * alone, so they carry no image decoding (libvips) or OCR code. Every import here is static:
 * an `import()` of a module inside the bundle made esbuild wrap every AWS SDK module it shares with
 * the function in lazy-init closures (docs/benchmarks.md, "Machine learning's split");
 * onnxruntime and the tokenizer, outside every bundle, are imported on first use.
 */
import { Invalid } from '../core/errors.ts';
import { type MlSettings, remoteConfigured } from './features.ts';
import { encodeTextLocal, localClipAvailable } from './local/clip-text.ts';
import { encodeTextRemote } from './remote.ts';

export const smartSearchOff = () => new Invalid('Smart search is not enabled');

/** Whether CLIP can run locally for these settings (its model folder is there): else smart search is off. */
export const localClipReady = async (ml: MlSettings): Promise<boolean> => localClipAvailable(ml.clip.modelName);

/** CLIP text embedding of a query. `language`: the caller's (Immich passes it for multilingual models; the local back end ignores it). */
export const encodeText = async (ml: MlSettings, text: string, language?: string): Promise<Float32Array> => {
  if (!ml.enabled || !ml.clip.enabled) throw smartSearchOff();
  if (remoteConfigured(ml)) return encodeTextRemote(ml, text, language);
  if (!(await localClipReady(ml))) throw smartSearchOff();
  return encodeTextLocal(ml.clip.modelName, text);
};
