import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBucketName } from '#infra/local/deployed/start.ts';
import { modelFiles } from '#infra/tools/upload-model.ts';
import { useDeployedStack } from '../support/deployed-stack.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey, sdkUpload } from '../support/sdk.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * Smart search through the deployed form (the synthesized template's functions, environment and
 * IAM, served locally: docs/deployment.md, "Smart search and OCR"): a model folder in an Immich ML
 * cache's layout goes into the local bucket under models/ as `npm run upload-model` deploys it, the
 * media function may read and list models/ and nothing else of the bucket by listing, and with the
 * Immich ML stand-in as the remote back end, photos are embedded by the deployed media function and
 * found by the deployed search function.
 */
const models = mkdtempSync(join(tmpdir(), 'deployed-models-'));
const model = 'ViT-B-32__openai';
for (const file of modelFiles) {
  mkdirSync(join(models, 'clip', model, file, '..'), { recursive: true });
  writeFileSync(join(models, 'clip', model, file), `stand-in ${file}`);
}
afterAll(() => rmSync(models, { recursive: true, force: true }));

describe('smart search, deployed', () => {
  const stack = useDeployedStack(undefined, { models });
  let ml: MlService;
  beforeAll(async () => {
    ml = await startMlService();
  });
  afterAll(() => ml?.close());

  it('gives the media function the models’ bucket, whose models/ it reads and lists, and no other listing', async () => {
    const { api } = stack.current;
    const media = [...api.deployment.functions.values()].find((fn) => fn.description.startsWith('Immich media:'));
    if (!media) throw new Error('No media function in the template');
    expect(media.environment.ML_MODELS_BUCKET).toBe(localBucketName);
    const accessKeyId = api.accessKeyOf(media.id) ?? '';
    const s3 = new S3Client({
      endpoint: api.awsEndpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey: 'local', sessionToken: 'local' },
    });
    try {
      const key = `models/clip/${model}/textual/tokenizer.json`;
      const object = await s3.send(new GetObjectCommand({ Bucket: localBucketName, Key: key }));
      expect(await object.Body?.transformToString()).toBe('stand-in textual/tokenizer.json');
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: localBucketName, Prefix: `models/clip/${model}/` }));
      expect((listed.Contents ?? []).map((each) => each.Key).sort()).toEqual(
        modelFiles.map((file) => `models/clip/${model}/${file}`).sort(),
      );
      // A model not uploaded is S3's 404 (the listing grant), not a 403.
      await expect(
        s3.send(new HeadObjectCommand({ Bucket: localBucketName, Key: 'models/clip/ViT-B-16-SigLIP2__webli/config.json' })),
      ).rejects.toMatchObject({
        $metadata: { httpStatusCode: 404 },
      });
      await expect(s3.send(new ListObjectsV2Command({ Bucket: localBucketName, Prefix: 'upload/' }))).rejects.toMatchObject({
        name: 'AccessDenied',
      });
      expect(stack.current.denied).toEqual([expect.stringContaining('s3:ListBucket')]);
      stack.current.denied.length = 0;
    } finally {
      s3.destroy();
    }
  });

  it('embeds uploads in the media function and answers v3 searchSmart from the search function, against the Immich ML stand-in', async () => {
    const { baseUrl } = stack.current;
    const admin = await adminWithApiKey(baseUrl, 'deployed-smart@immich.cloud');
    const config = await v3.getConfig(admin);
    await v3.updateConfig({ adminConfigDto: { ...config, machineLearning: { ...config.machineLearning, urls: [ml.url] } } }, admin);
    const red = await sdkUpload(admin, makeJpeg({ width: 96, height: 64, color: [250, 10, 10] }), 'red.jpg');
    const blue = await sdkUpload(admin, makeJpeg({ width: 96, height: 64, color: [10, 10, 250] }), 'blue.jpg');
    const deadline = Date.now() + hangGuard.wait;
    while ((await v3.searchSmart({ smartSearchDto: { query: 'red' } }, admin)).assets.items.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await v3.searchSmart({ smartSearchDto: { query: 'red' } }, admin)).assets.items.map((asset) => asset.id)).toEqual([red, blue]);
    expect((await v3.searchSmart({ smartSearchDto: { query: 'blue' } }, admin)).assets.items.map((asset) => asset.id)).toEqual([blue, red]);
    // The deployed media function sent each photo's preview; the search function the queries.
    const predictions = ml.requests.filter((request) => request.path === '/predict');
    expect(predictions.filter((request) => JSON.stringify(request.entries).includes('"visual"'))).toHaveLength(2);
    expect(predictions.filter((request) => request.text === 'red' || request.text === 'blue').length).toBeGreaterThanOrEqual(2);
    expect(stack.current.denied).toEqual([]);
  });
});
