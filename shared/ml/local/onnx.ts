/**
 * onnxruntime-node sessions (docs/clip-local.md). onnxruntime is imported on first use only (its
 * native library is 25 MB: functions that never run a model never load it), one session per model
 * file per process, each with min(2, cores) intra-op threads that do not spin (`ML_THREADS`
 * overrides; measured in docs/clip-local.md). The model files a session reads are found or copied
 * by shared/ml/local/model-files.ts (re-exported here).
 */
import { availableParallelism } from 'node:os';
import type { InferenceSession } from 'onnxruntime-node';
import * as env from '../../core/env.ts';

export { type ClipPart, clipFiles, modelAvailable, modelFolder, modelFolderName, resetModelCaches } from './model-files.ts';

type Ort = typeof import('onnxruntime-node');

let ortModule: Promise<Ort> | undefined;
const ort = (): Promise<Ort> => (ortModule ??= import('onnxruntime-node'));

export const threads = (): number => env.mlThreads(Math.min(2, availableParallelism()));

const sessions = new Map<string, Promise<InferenceSession>>();

/** The session of a model file, made once per process (a failed load is tried again next time). */
export const sessionOf = (file: string): Promise<InferenceSession> => {
  let session = sessions.get(file);
  if (!session) {
    session = ort().then(({ InferenceSession }) =>
      InferenceSession.create(file, {
        intraOpNumThreads: threads(),
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // Idle threads sleep instead of spinning: spinning made two threads slower than one on
        // busy cores (docs/clip-local.md, "Measurements").
        extra: { session: { intra_op: { allow_spinning: '0' } } },
      }),
    );
    sessions.set(file, session);
    session.catch(() => sessions.delete(file));
  }
  return session;
};

/** A tensor for a session's input. */
export const tensor = async (type: 'float32' | 'int32', data: Float32Array | Int32Array, dims: number[]) => {
  const { Tensor } = await ort();
  return type === 'float32' ? new Tensor('float32', data as Float32Array, dims) : new Tensor('int32', data as Int32Array, dims);
};
