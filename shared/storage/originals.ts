/**
 * Where uploaded originals (and their sidecars) live: one small interface, two stores. Deployed,
 * an S3 bucket (`ORIGINALS_BUCKET`, set by the stack); locally, a folder (`ORIGINALS_DIR`, default
 * `$DATA_DIR/originals`). Keys are the asset's `originalPath`, made by the upload service only.
 */
import { join, resolve } from 'node:path';

/** What a put wrote: the key, and in a versioned bucket the exact version (so an undo removes it for good). */
export interface StoredObject {
  key: string;
  version?: string;
}

export interface OriginalsStore {
  /** Stores the bytes under `key`; keys are new asset ids, so nothing is replaced. */
  put(key: string, body: Buffer, contentType: string): Promise<StoredObject>;
  /** Reads an original back, or undefined if there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes what `put` wrote; objects that do not exist are fine. */
  delete(objects: readonly StoredObject[]): Promise<void>;
}

/** Keys are `upload/<uuid>/<hex>/<hex>/<uuid>.<ext>[.xmp]`: nothing that could leave the store. */
export const safeKey = /^upload(\/[A-Za-z0-9._-]+)+$/;

export const assertSafeKey = (key: string): void => {
  if (!safeKey.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Refusing storage key ${JSON.stringify(key)}`);
  }
};

let store: Promise<OriginalsStore> | undefined;

/** The store this process uses, chosen by environment once. */
export const originalsStore = (): Promise<OriginalsStore> => {
  store ??= (async () => {
    const bucket = process.env.ORIGINALS_BUCKET;
    if (bucket) {
      const { S3Store } = await import('./s3-store.ts');
      return new S3Store(bucket);
    }
    const { FileStore } = await import('./file-store.ts');
    return new FileStore(resolve(process.env.ORIGINALS_DIR ?? join(process.env.DATA_DIR ?? '.data', 'originals')));
  })();
  return store;
};

/** Forgets the chosen store (tests switch between stores). */
export const resetOriginalsStore = (): void => {
  store = undefined;
};
