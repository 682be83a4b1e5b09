/**
 * The CLIP model files (docs/clip-local.md, "Where the model comes from"), without onnxruntime: what
 * tells whether smart search can run locally (shared/ml/features.ts, which the features routes
 * load) and what shared/ml/local/clip.ts reads the model from.
 *
 * A CLIP model is an Immich ML cache folder, `clip/<modelName>/`: locally under `ML_MODELS_DIR`;
 * deployed under `models/` in the bucket named by `ML_MODELS_BUCKET` (in tests, the local
 * `ORIGINALS_DIR` when there is no originals bucket), copied once per process to /tmp, streamed (the visual and textual
 * models are about 350 and 250 MB), each file under a temporary name renamed when whole.
 */
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as env from '../../core/env.ts';
import { originalsStore } from '../../storage/originals.ts';
import { S3Store } from '../../storage/s3-store.ts';
import type { OriginalsStore } from '../../storage/store.ts';

export type ClipPart = 'visual' | 'textual';
export const clipFiles: Record<ClipPart, readonly string[]> = {
  visual: ['config.json', 'visual/model.onnx', 'visual/preprocess_cfg.json'],
  textual: ['config.json', 'textual/model.onnx', 'textual/tokenizer.json', 'textual/tokenizer_config.json'],
};

/**
 * The folder name of a configured model name, as Immich's server cleans it (the part after the
 * last `/`, `:` as `_`), or undefined when it could name a path outside the models folder.
 */
export const modelFolderName = (modelName: string): string | undefined => {
  const name = (modelName.split('/').at(-1) ?? '').replaceAll(':', '_');
  return /^[A-Za-z0-9._-]+$/.test(name) && name !== '.' && name !== '..' ? name : undefined;
};

/** Where the models come from: a folder of this machine, or a store (bucket). */
type Source = { dir: string } | { store: OriginalsStore };

const source = async (): Promise<Source | undefined> => {
  const bucket = env.mlModelsBucket();
  if (bucket) {
    const originals = env.originalsBucket();
    // The originals store when it is that bucket (one client for both), or when there is no originals
    // bucket but a local originals folder is named (tests: the folder stands in for the bucket);
    // else the bucket itself (the features functions, which have no originals store).
    if (originals === bucket || (!originals && env.originalsDirSetting())) return { store: await originalsStore() };
    return { store: new S3Store(bucket) };
  }
  const dir = env.mlModelsDir();
  return dir ? { dir } : undefined;
};

const storeKey = (name: string, file: string) => `models/clip/${name}/${file}`;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const checked = new Map<string, { at: number; result: Promise<boolean> }>();
/** How long an answer of `modelAvailable` is kept: a model added later is seen within this. */
const checkMs = 60_000;

/** Whether every file of both parts of the model is there (cached for a minute; false on any error). */
export const modelAvailable = (modelName: string): Promise<boolean> => {
  const name = modelFolderName(modelName);
  if (!name) return Promise.resolve(false);
  const cached = checked.get(name);
  if (cached && Date.now() - cached.at < checkMs) return cached.result;
  const result = (async () => {
    const from = await source();
    if (!from) return false;
    const files = [...new Set([...clipFiles.visual, ...clipFiles.textual])];
    const found = await Promise.all(
      files.map((file) => ('dir' in from ? exists(join(from.dir, 'clip', name, file)) : from.store.exists(storeKey(name, file)))),
    );
    return found.every(Boolean);
  })().catch(() => false);
  checked.set(name, { at: Date.now(), result });
  return result;
};

/** Forgets what was checked and copied (tests change the environment). */
export const resetModelCaches = (): void => {
  checked.clear();
  copies.clear();
};

/** Free bytes in the folder's file system, or undefined if it cannot be told. */
const freeBytes = async (dir: string): Promise<number | undefined> => {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
};

/** Below this much free space in /tmp no copy is started (the smallest CLIP part is ~250 MB). */
const minimumFree = 64 * 1024 * 1024;

const copyFile = async (store: OriginalsStore, key: string, target: string): Promise<void> => {
  if (await exists(target)) return;
  const body = await store.getStream(key);
  if (!body) throw new Error(`The model file ${key} is not in the models store`);
  await mkdir(join(target, '..'), { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.part`;
  try {
    await pipeline(body, createWriteStream(partial));
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new Error(`Not enough space in ${env.tmpDir()} to copy the model file ${key} (docs/clip-local.md)`);
    }
    throw error;
  }
};

const copies = new Map<string, Promise<string>>();

/**
 * The local folder holding the files of one part of the model (`clip/<name>/` with `config.json`
 * and `visual/` or `textual/`): ML_MODELS_DIR's, or a copy in /tmp of the store's, made once per
 * process and part. Throws when the model is not there.
 */
export const modelFolder = async (modelName: string, part: ClipPart): Promise<string> => {
  const name = modelFolderName(modelName);
  if (!name) throw new Error(`Invalid CLIP model name ${JSON.stringify(modelName)}`);
  const from = await source();
  if (!from) throw new Error('No CLIP model folder is configured (ML_MODELS_DIR or ML_MODELS_BUCKET)');
  if ('dir' in from) {
    const folder = join(from.dir, 'clip', name);
    for (const file of clipFiles[part]) {
      if (!(await exists(join(folder, file)))) throw new Error(`The CLIP model ${name} has no ${file} in ${from.dir}`);
    }
    return folder;
  }
  const id = `${name}/${part}`;
  let copy = copies.get(id);
  if (!copy) {
    copy = (async () => {
      const root = join(env.tmpDir(), 'ml-models');
      await mkdir(root, { recursive: true });
      const free = await freeBytes(root);
      if (free !== undefined && free < minimumFree) {
        throw new Error(`Not enough space in ${env.tmpDir()} to copy the CLIP model (${Math.floor(free / 1048576)} MB free)`);
      }
      const folder = join(root, 'clip', name);
      for (const file of clipFiles[part]) await copyFile(from.store, storeKey(name, file), join(folder, file));
      return folder;
    })();
    copies.set(id, copy);
    copy.catch(() => copies.delete(id));
  }
  return copy;
};
