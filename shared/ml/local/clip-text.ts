/**
 * CLIP's text tower in this process (docs/clip-local.md): the query tokenised as Immich ML does
 * (shared/ml/local/tokenizer.ts) and run by onnxruntime-node from the model folder
 * (shared/ml/local/model-files.ts finds or copies it). Apart from the image tower (clip.ts), whose
 * preprocessing decodes images: a function that only encodes queries (smart search) carries no
 * image code. onnxruntime and the tokenizer package are imported on first use. Embeddings are
 * returned as the model gives them (callers normalise).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { modelAvailable, modelFolder } from './model-files.ts';
import { sessionOf, tensor } from './onnx.ts';
import { type ClipTokenizer, loadTokenizer } from './tokenizer.ts';

export const readJson = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, 'utf8'));

/** Whether the model folder for `modelName` is there (both parts); never throws. */
export const localClipAvailable = (modelName: string): Promise<boolean> => modelAvailable(modelName);

const tokenizers = new Map<string, Promise<ClipTokenizer>>();

/** Memoises `make` under `key`, forgetting a failure (the next call tries again). */
export const once = <T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> => {
  let value = cache.get(key);
  if (!value) {
    value = make();
    cache.set(key, value);
    value.catch(() => cache.delete(key));
  }
  return value;
};

/** The first row of the session's first output: the embedding of the one input. */
export const firstEmbedding = (output: { data: unknown; dims: readonly number[] }): Float32Array => {
  const width = output.dims.at(-1) ?? 0;
  if (!(output.data instanceof Float32Array) || width < 1 || output.data.length < width) {
    throw new Error('The CLIP model gave no float32 embedding');
  }
  return output.data.slice(0, width);
};

/** The CLIP text embedding of a search query. */
export const encodeTextLocal = async (modelName: string, text: string): Promise<Float32Array> => {
  const folder = await modelFolder(modelName, 'textual');
  const tokenizer = await once(tokenizers, folder, async () =>
    loadTokenizer({
      tokenizer: await readJson(join(folder, 'textual', 'tokenizer.json')),
      tokenizerConfig: await readJson(join(folder, 'textual', 'tokenizer_config.json')),
      modelConfig: await readJson(join(folder, 'config.json')),
    }),
  );
  const session = await sessionOf(join(folder, 'textual', 'model.onnx'));
  const { ids, length } = tokenizer.tokens(text);
  const dims = [1, tokenizer.contextLength];
  // Multilingual CLIP (M-CLIP) text models take Hugging Face's input names, with a mask of the
  // real tokens (Immich's MClipTextualEncoder).
  const inputs: Record<string, Awaited<ReturnType<typeof tensor>>> = session.inputNames.includes('input_ids')
    ? {
        input_ids: await tensor('int32', ids, dims),
        attention_mask: await tensor('int32', new Int32Array(ids.length).fill(1, 0, length), dims),
      }
    : { text: await tensor('int32', ids, dims) };
  const outputs = await session.run(inputs);
  return firstEmbedding(outputs[session.outputNames[0] as string] as { data: unknown; dims: readonly number[] });
};
