/**
 * The originals store this process uses, chosen by environment once: deployed, an S3 bucket
 * (`ORIGINALS_BUCKET`, set by the stack); locally, a folder (`ORIGINALS_DIR`, default
 * `$DATA_DIR/originals`). Each store is imported only when chosen, so a function never loads
 * the S3 client to write a file, nor the other way round.
 */
import { resolve } from 'node:path';
import * as env from '../core/env.ts';
import type { OriginalsStore } from './store.ts';

export type { OriginalsStore, StoredObject } from './store.ts';

let store: Promise<OriginalsStore> | undefined;

export const originalsStore = (): Promise<OriginalsStore> => {
  store ??= (async () => {
    const bucket = env.originalsBucket();
    if (bucket) {
      const { S3Store } = await import('./s3-store.ts');
      return new S3Store(bucket);
    }
    const { FileStore } = await import('./file-store.ts');
    return new FileStore(resolve(env.originalsDir()));
  })();
  return store;
};

/** Forgets the chosen store (tests switch between stores). */
export const resetOriginalsStore = (): void => {
  store = undefined;
};
