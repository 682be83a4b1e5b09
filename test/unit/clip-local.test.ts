import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeImageLocal, encodeTextLocal, localClipAvailable } from '#shared/ml/local/clip.ts';
import { modelFolderName, resetModelCaches } from '#shared/ml/local/onnx.ts';
import { originalsStore, resetOriginalsStore } from '#shared/storage/originals.ts';
import { clipModelFiles, colourEmbedding, colours, cosine, makeClipModelDir } from '../support/clip-model.ts';
import { makeJpeg } from '../support/photos.ts';

/**
 * CLIP run in this process on the generated Immich-layout model (test/support/clip-model.ts),
 * whose embeddings follow colour: a photo's embedding must rank its colour's word first.
 */
const rank = <T>(query: Float32Array, candidates: [T, Float32Array][]) =>
  [...candidates].sort(([, a], [, b]) => cosine(query, b) - cosine(query, a)).map(([name]) => name);

const root = mkdtempSync(join(tmpdir(), 'clip-models-'));
const saved = { ...process.env };
const words = Object.keys(colours);

beforeAll(() => {
  makeClipModelDir(root);
});
afterEach(() => {
  for (const name of ['ML_MODELS_DIR', 'ML_MODELS_BUCKET', 'ORIGINALS_DIR', 'ORIGINALS_BUCKET', 'TMPDIR']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetModelCaches();
  resetOriginalsStore();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('local CLIP from ML_MODELS_DIR', () => {
  it('ranks the matching colour word first for red, green and blue photos', async () => {
    process.env.ML_MODELS_DIR = root;
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(true);
    const texts = await Promise.all(
      words.map(async (word) => [word, await encodeTextLocal('ViT-B-32__openai', word)] as [string, Float32Array]),
    );
    for (const word of ['red', 'green', 'blue']) {
      const jpeg = makeJpeg({ width: 320, height: 240, color: colours[word] });
      const image = await encodeImageLocal('ViT-B-32__openai', jpeg);
      expect(image.length).toBe(512);
      expect(rank(image, texts)[0]).toBe(word);
      // The model maps the photo's mean colour: a JPEG's colour is within a few levels.
      expect(cosine(image, colourEmbedding(colours[word] as [number, number, number]))).toBeGreaterThan(0.999);
    }
  });

  it('finds the photo of the colour a sentence names', async () => {
    process.env.ML_MODELS_DIR = root;
    const photos = await Promise.all(
      ['red', 'green', 'blue', 'yellow'].map(
        async (word) =>
          [word, await encodeImageLocal('ViT-B-32__openai', makeJpeg({ width: 200, height: 300, color: colours[word] }))] as [
            string,
            Float32Array,
          ],
      ),
    );
    expect(rank(await encodeTextLocal('ViT-B-32__openai', '  A photo of a YELLOW car '), photos)[0]).toBe('yellow');
    expect(rank(await encodeTextLocal('ViT-B-32__openai', 'the blue dog'), photos)[0]).toBe('blue');
  });

  it('calls a missing model unavailable, and encoding with it fails clearly', async () => {
    process.env.ML_MODELS_DIR = root;
    expect(await localClipAvailable('ViT-L-14__openai')).toBe(false);
    await expect(encodeTextLocal('ViT-L-14__openai', 'red')).rejects.toThrow(/ViT-L-14__openai has no config.json/);
    delete process.env.ML_MODELS_DIR;
    resetModelCaches();
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(false);
    await expect(encodeImageLocal('ViT-B-32__openai', makeJpeg())).rejects.toThrow(/No CLIP model folder/);
  });

  it('calls a folder missing one file unavailable', async () => {
    const partial = mkdtempSync(join(tmpdir(), 'clip-partial-'));
    const folder = makeClipModelDir(partial, 'ViT-B-16__openai');
    rmSync(join(folder, 'textual', 'tokenizer_config.json'));
    process.env.ML_MODELS_DIR = partial;
    expect(await localClipAvailable('ViT-B-16__openai')).toBe(false);
    rmSync(partial, { recursive: true, force: true });
  });

  it("cleans a model name as Immich's server does and refuses a path", async () => {
    expect(modelFolderName('immich-app/ViT-B-32__openai')).toBe('ViT-B-32__openai');
    expect(modelFolderName('ViT-B-32:openai')).toBe('ViT-B-32_openai');
    expect(modelFolderName('..')).toBeUndefined();
    expect(modelFolderName('a b')).toBeUndefined();
    process.env.ML_MODELS_DIR = join(root, 'clip', 'x');
    expect(await localClipAvailable('..')).toBe(false);
  });
});

describe('local CLIP from the models store (ML_MODELS_BUCKET)', () => {
  it('copies the model from the originals store to TMPDIR on first use, one part at a time', async () => {
    const originals = mkdtempSync(join(tmpdir(), 'clip-originals-'));
    const scratch = mkdtempSync(join(tmpdir(), 'clip-tmp-'));
    Object.assign(process.env, { ORIGINALS_DIR: originals, ML_MODELS_BUCKET: 'models-in-originals', TMPDIR: scratch });
    resetOriginalsStore();
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(false);
    const store = await originalsStore();
    for (const [path, body] of Object.entries(clipModelFiles())) {
      await store.put(`models/clip/ViT-B-32__openai/${path}`, Buffer.from(body), 'application/octet-stream');
    }
    // The answer is kept for a minute; a new process (here: the caches reset) sees the model.
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(false);
    resetModelCaches();
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(true);

    const copy = join(scratch, 'ml-models', 'clip', 'ViT-B-32__openai');
    const text = await encodeTextLocal('ViT-B-32__openai', 'green');
    expect(readdirSync(copy).sort()).toEqual(['config.json', 'textual']);
    expect(cosine(text, colourEmbedding([0, 255, 0]))).toBeGreaterThan(0.9999);
    const image = await encodeImageLocal('ViT-B-32__openai', makeJpeg({ color: [0, 255, 0] }));
    expect(readdirSync(copy).sort()).toEqual(['config.json', 'textual', 'visual']);
    expect(cosine(image, text)).toBeGreaterThan(0.999);
    expect(readFileSync(join(copy, 'visual', 'model.onnx'))).toEqual(Buffer.from(clipModelFiles()['visual/model.onnx'] as Uint8Array));
    // Nothing half-written is left beside the files.
    expect(readdirSync(join(copy, 'visual')).sort()).toEqual(['model.onnx', 'preprocess_cfg.json']);
    rmSync(originals, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    expect(existsSync(copy)).toBe(false);
  });
});
