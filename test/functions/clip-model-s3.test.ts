import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeImageLocal, encodeTextLocal, localClipAvailable } from '#shared/ml/local/clip.ts';
import { resetModelCaches } from '#shared/ml/local/onnx.ts';
import { resetOriginalsStore } from '#shared/storage/originals.ts';
import { clipModelFiles, colourEmbedding, cosine } from '../support/clip-model.ts';
import { makeJpeg } from '../support/photos.ts';

// The deployed form: the model under models/clip/<name>/ in a bucket of a real S3-compatible
// server on loopback (s3rver, as test/functions/s3-store.test.ts), copied to TMPDIR on first use.
const saved = { ...process.env };
let server: S3rver;
let client: S3Client;
const scratch = mkdtempSync(join(tmpdir(), 'clip-s3-tmp-'));

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 's3rver-')),
    configureBuckets: [
      { name: 'originals', configs: [] },
      { name: 'models', configs: [] },
    ],
  });
  const { port } = (await server.run()) as { port: number };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    ORIGINALS_BUCKET: 'originals',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TMPDIR: scratch,
  });
  resetOriginalsStore();
  client = new S3Client({ forcePathStyle: true });
  for (const bucket of ['originals', 'models']) {
    for (const [path, body] of Object.entries(clipModelFiles())) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `models/clip/ViT-B-32__openai/${path}`, Body: body }));
    }
  }
});

afterAll(async () => {
  await server.close();
  process.env = saved;
  resetOriginalsStore();
  resetModelCaches();
  rmSync(scratch, { recursive: true, force: true });
});

describe('local CLIP with the model in S3 (ML_MODELS_BUCKET)', () => {
  it.each(['originals', 'models'])('reads it from the %s bucket', async (bucket) => {
    process.env.ML_MODELS_BUCKET = bucket;
    resetModelCaches();
    rmSync(join(scratch, 'ml-models'), { recursive: true, force: true });
    expect(await localClipAvailable('ViT-B-32__openai')).toBe(true);
    expect(await localClipAvailable('ViT-B-16__openai')).toBe(false);
    const red = await encodeImageLocal('ViT-B-32__openai', makeJpeg({ color: [255, 0, 0] }));
    expect(readdirSync(join(scratch, 'ml-models', 'clip', 'ViT-B-32__openai')).sort()).toEqual(['config.json', 'visual']);
    expect(cosine(red, colourEmbedding([255, 0, 0]))).toBeGreaterThan(0.999);
    expect(cosine(await encodeTextLocal('ViT-B-32__openai', 'red'), red)).toBeGreaterThan(0.999);
    await expect(encodeTextLocal('ViT-B-16__openai', 'red')).rejects.toThrow(
      /models\/clip\/ViT-B-16__openai\/config.json is not in the models store/,
    );
  });
});
