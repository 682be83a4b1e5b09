/**
 * The originals store this process uses, chosen by environment once: deployed, an S3 bucket
 * (`ORIGINALS_BUCKET`, set by the stack); locally, a folder (`ORIGINALS_DIR`, default
 * `$DATA_DIR/originals`). Both stores are imported statically and only the chosen one is
 * constructed: a dynamic `import()` of the S3 store made esbuild wrap every module it shares with
 * the DynamoDB client, which cost each store function about 15 ms of cold import
 * (docs/benchmarks.md, "Bundle size and cold import per function").
 */
import { resolve } from 'node:path';
import * as env from '../core/env.ts';
import { FileStore } from './file-store.ts';
import { S3Store } from './s3-store.ts';
import type { OriginalsStore } from './store.ts';

export type { OriginalsStore, StoredObject } from './store.ts';

let store: Promise<OriginalsStore> | undefined;

export const originalsStore = (): Promise<OriginalsStore> => {
  if (!store) {
    const bucket = env.originalsBucket();
    store = Promise.resolve(bucket ? new S3Store(bucket) : new FileStore(resolve(env.originalsDir())));
  }
  return store;
};

/** Forgets the chosen store (tests switch between stores). */
export const resetOriginalsStore = (): void => {
  store = undefined;
};
