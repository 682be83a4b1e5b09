import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFiles } from '#infra/tools/upload-model.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bucket = 'originals';
const dir = mkdtempSync(join(tmpdir(), 'upload-model-'));
let server: S3rver;
let endpoint: string;
let s3: S3Client;

/**
 * An Immich ML container's cache folder: `clip/<model>/` with the files a model runs with, each
 * of known bytes, and what the container keeps beside them for other hardware (not sent).
 */
const cacheFolder = (model: string, seed: string): string => {
  const cache = join(dir, `cache-${seed}`);
  const folder = join(cache, 'clip', model);
  for (const file of [...modelFiles, 'visual/model.armnn', 'textual/rknpu/rk3588/model.rknn']) {
    mkdirSync(join(folder, file, '..'), { recursive: true });
    writeFileSync(join(folder, file), `${seed}:${file}:`.repeat(file.endsWith('.onnx') ? 50_000 : 3));
  }
  return cache;
};

const uploadModel = (...args: string[]) =>
  run(process.execPath, [join(root, 'infra', 'tools', 'upload-model.ts'), ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      AWS_ENDPOINT_URL_S3: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'eu-west-1',
    },
  });

const keys = async (): Promise<string[]> =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'models/' }))).Contents ?? []).map((each) => each.Key ?? '').sort();
const text = async (key: string): Promise<string> =>
  (await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body?.transformToString()) ?? '';

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
  s3 = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  s3?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run upload-model (infra/tools/upload-model.ts)', () => {
  it('puts a model folder of an Immich ML cache under models/clip/<model>/, only the files a model runs with, and skips them when run again', async () => {
    const cache = cacheFolder('ViT-B-32__openai', 'first');
    const { stdout } = await uploadModel('--bucket', bucket, join(cache, 'clip', 'ViT-B-32__openai'));
    expect(stdout).toContain('Sent 6, already there 0');
    expect(await keys()).toEqual(modelFiles.map((file) => `models/clip/ViT-B-32__openai/${file}`).sort());
    expect(await text('models/clip/ViT-B-32__openai/textual/tokenizer.json')).toBe('first:textual/tokenizer.json:'.repeat(3));
    expect((await text('models/clip/ViT-B-32__openai/visual/model.onnx')).length).toBe('first:visual/model.onnx:'.length * 50_000);
    // Again: nothing sent. Then one file changed: only it.
    expect((await uploadModel('--bucket', bucket, join(cache, 'clip', 'ViT-B-32__openai'))).stdout).toContain('Sent 0, already there 6');
    writeFileSync(join(cache, 'clip', 'ViT-B-32__openai', 'config.json'), '{"embed_dim":512}');
    expect((await uploadModel('--bucket', bucket, join(cache, 'clip', 'ViT-B-32__openai'))).stdout).toContain('Sent 1, already there 5');
    expect(await text('models/clip/ViT-B-32__openai/config.json')).toBe('{"embed_dim":512}');
  });

  it('takes the cache folder itself with --model, and says what is missing from a folder that is not a model', async () => {
    const cache = cacheFolder('ViT-B-32__laion2b-s34b-b79k', 'second');
    await uploadModel('--bucket', bucket, '--model', 'ViT-B-32__laion2b-s34b-b79k', cache);
    expect((await keys()).filter((key) => key.includes('laion2b'))).toHaveLength(6);
    rmSync(join(cache, 'clip', 'ViT-B-32__laion2b-s34b-b79k', 'textual', 'tokenizer.json'));
    const failed = await uploadModel('--bucket', bucket, '--model', 'ViT-B-32__laion2b-s34b-b79k', cache).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/not an Immich-layout CLIP model folder: textual\/tokenizer\.json missing/),
    });
    const unnamed = await uploadModel('--bucket', bucket, cache).catch((error: { code: number; stderr: string }) => error);
    expect(unnamed).toMatchObject({ code: 1, stderr: expect.stringContaining('config.json, visual/model.onnx') });
    const noBucket = await uploadModel(cache).catch((error: { code: number; stderr: string }) => error);
    expect(noBucket).toMatchObject({ code: 1, stderr: expect.stringContaining('Usage: npm run upload-model') });
  });
});
