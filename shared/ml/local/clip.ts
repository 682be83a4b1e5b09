/**
 * CLIP in this process (docs/clip-local.md): an Immich-layout model folder (shared/ml/local/model-files.ts
 * finds or copies it) run by onnxruntime-node with Immich ML's own preprocessing
 * (shared/ml/local/clip-preprocess.ts) and tokenisation (shared/ml/local/tokenizer.ts, through
 * clip-text.ts, the text tower, re-exported here), so an embedding made here matches one from an
 * Immich ML service with the same model. onnxruntime is imported on first use; embeddings are
 * returned as the model gives them (callers normalise).
 */
import { join } from 'node:path';
import { type PreprocessConfig, preprocessConfig, preprocessImage } from './clip-preprocess.ts';
import { firstEmbedding, once, readJson } from './clip-text.ts';
import { modelFolder } from './model-files.ts';
import { sessionOf, tensor } from './onnx.ts';

export { encodeTextLocal, localClipAvailable } from './clip-text.ts';

const preprocessConfigs = new Map<string, Promise<PreprocessConfig>>();

/** The CLIP image embedding of an image (a preview JPEG). */
export const encodeImageLocal = async (modelName: string, jpeg: Buffer): Promise<Float32Array> => {
  const folder = await modelFolder(modelName, 'visual');
  const config = await once(preprocessConfigs, folder, async () =>
    preprocessConfig(await readJson(join(folder, 'visual', 'preprocess_cfg.json'))),
  );
  const session = await sessionOf(join(folder, 'visual', 'model.onnx'));
  const pixels = await preprocessImage(jpeg, config);
  const side = Math.sqrt(pixels.length / 3);
  const outputs = await session.run({ image: await tensor('float32', pixels, [1, 3, side, side]) });
  return firstEmbedding(outputs[session.outputNames[0] as string] as { data: unknown; dims: readonly number[] });
};
