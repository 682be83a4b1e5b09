#!/usr/bin/env node
/**
 * `npm run upload-model -- --bucket <OriginalsBucket> <folder>`: puts a CLIP model into the stack's
 * originals bucket under `models/clip/<model>/`, where the functions that run models find it
 * (docs/deployment.md, "Smart search and OCR"). The folder is an Immich ML container's cache folder
 * for one model, as it is (`<cache>/clip/ViT-B-32__openai`, the model's name being the folder's), or
 * the cache folder itself with `--model <name>`. Only the files a model runs with are sent (the
 * ONNX graphs, the preprocessing and tokenizer configs), not the container's other formats
 * (ArmNN, RKNN). A file already there with the same size and SHA-256 is skipped, so running it again
 * after an interruption sends only what is missing. Credentials and Region are the AWS CLI's
 * (environment, profile, SSO): the deployer's machine, not the stack's.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

/** The files of an Immich-layout CLIP model the functions read (shared/ml/local/), relative to its folder. */
export const modelFiles = [
  'config.json',
  'visual/model.onnx',
  'visual/preprocess_cfg.json',
  'textual/model.onnx',
  'textual/tokenizer.json',
  'textual/tokenizer_config.json',
] as const;

/** Where a model's files go in the bucket: `models/clip/<model>/<file>`. */
export const modelKey = (model: string, file: string): string => `models/clip/${model}/${file}`;

/** Immich's model names: letters, digits, `-`, `_`, `.` (`ViT-B-32__openai`, `ViT-B-16-SigLIP2__webli`). */
const modelName = /^[\w.-]+$/;

export interface ModelUpload {
  model: string;
  folder: string;
  files: { file: string; key: string; size: number }[];
}

/** What would be uploaded from a folder: its model name and files, or an error that says what is wrong. */
export const planModelUpload = (path: string, model?: string): ModelUpload => {
  let folder = resolve(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`No folder ${folder}`);
  // An Immich ML cache folder (or its `clip/` folder) with the model named.
  if (model && !existsSync(join(folder, 'config.json')))
    folder = [join(folder, 'clip', model), join(folder, model)].find((each) => existsSync(join(each, 'config.json'))) ?? folder;
  const name = model ?? basename(folder);
  if (!modelName.test(name)) throw new Error(`"${name}" is not a model name as Immich's (letters, digits, - _ .): give --model <name>`);
  const missing = modelFiles.filter((file) => !existsSync(join(folder, file)));
  if (missing.length > 0)
    throw new Error(
      `${folder} is not an Immich-layout CLIP model folder: ${missing.join(', ')} missing (an Immich ML container's cache has one per model, at <cache>/clip/<model>)`,
    );
  return {
    model: name,
    folder,
    files: modelFiles.map((file) => ({ file, key: modelKey(name, file), size: statSync(join(folder, file)).size })),
  };
};

const sha256 = (path: string): Promise<string> =>
  new Promise((done, failed) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done(hash.digest('hex')))
      .on('error', failed);
  });

/** Uploads a planned model; what was sent and what was already there. */
export const uploadModel = async (
  s3: S3Client,
  bucket: string,
  plan: ModelUpload,
  progress: (line: string) => void = () => {},
): Promise<{ sent: string[]; skipped: string[] }> => {
  const sent: string[] = [];
  const skipped: string[] = [];
  for (const { file, key, size } of plan.files) {
    const path = join(plan.folder, file);
    const digest = await sha256(path);
    const existing = await s3
      .send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
      .catch((error: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
        if (error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      });
    if (existing?.ContentLength === size && existing.Metadata?.sha256 === digest) {
      skipped.push(key);
      progress(`${key}: already there`);
      continue;
    }
    // In parts of 64 MB, four at a time (a 350 MB visual model is six parts).
    const upload = new Upload({
      client: s3,
      params: { Bucket: bucket, Key: key, Body: createReadStream(path), Metadata: { sha256: digest } },
      partSize: 64 * 1024 * 1024,
      queueSize: 4,
    });
    upload.on('httpUploadProgress', ({ loaded }) => progress(`${key}: ${(((loaded ?? 0) / Math.max(size, 1)) * 100).toFixed(0)} %`));
    await upload.done();
    sent.push(key);
  }
  return { sent, skipped };
};

const usage = `Usage: npm run upload-model -- --bucket <OriginalsBucket> [--model <name>] <folder>

Uploads a CLIP model in Immich's layout (an Immich ML container's cache folder,
<cache>/clip/<model>) to s3://<bucket>/models/clip/<model>/, where smart search finds it.
The bucket is the stack's output OriginalsBucket. AWS credentials as for the AWS CLI.

Options:
  --bucket <name>   the originals bucket (else ML_MODELS_BUCKET)
  --model <name>    the model's name (default: the folder's name), with a cache folder given
  --dry-run         list what would be sent`;

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      bucket: { type: 'string' },
      model: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const bucket = values.bucket ?? process.env.ML_MODELS_BUCKET;
  if (values.help || positionals.length !== 1 || !bucket) {
    console.error(usage);
    process.exit(values.help ? 0 : 1);
  }
  try {
    const plan = planModelUpload(positionals[0] ?? '', values.model);
    const total = plan.files.reduce((sum, { size }) => sum + size, 0);
    console.log(
      `${plan.model}: ${plan.files.length} files, ${(total / 1024 ** 2).toFixed(1)} MB → s3://${bucket}/models/clip/${plan.model}/`,
    );
    if (values['dry-run']) {
      for (const { key, size } of plan.files) console.log(`  ${key} (${(size / 1024 ** 2).toFixed(1)} MB)`);
    } else {
      const s3 = new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
      const { sent, skipped } = await uploadModel(
        s3,
        bucket,
        plan,
        (line) => process.stderr.isTTY && process.stderr.write(`\r\x1b[K${line}`),
      );
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      console.log(
        `Sent ${sent.length}, already there ${skipped.length}. Choose "${plan.model}" in Administration → Settings → Machine Learning → Smart Search.`,
      );
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
