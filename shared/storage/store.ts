import type { Readable } from 'node:stream';

/**
 * Where uploaded originals (and their sidecars) live: one small interface, two stores (a folder,
 * an S3 bucket; `originals.ts` picks one). Keys are the asset's `originalPath`, made by the upload
 * service only.
 */

/** What a put wrote: the key, and in a versioned bucket the exact version (so an undo removes it for good). */
export interface StoredObject {
  key: string;
  version?: string;
}

export interface SignedUrlOptions {
  contentType: string;
  cacheControl: string;
  /** `attachment; filename="…"` for downloads. */
  contentDisposition?: string;
  expiresSeconds: number;
}

export interface OriginalsStore {
  /** Stores the bytes under `key`; keys are new asset ids, so nothing is replaced. */
  put(key: string, body: Buffer, contentType: string): Promise<StoredObject>;
  /** Reads an original back, or undefined if there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** The same as a stream (an archive reads many originals, never holding one whole). */
  getStream(key: string): Promise<Readable | undefined>;
  /** Whether an object is stored under `key` (without reading it). */
  exists(key: string): Promise<boolean>;
  /**
   * A short-lived URL a client can fetch the object from directly (S3's presigned GET, which also
   * serves Range requests), answered with the given type, caching and disposition. Stores without
   * one (the local folder) have the caller send the bytes.
   */
  signedUrl?(key: string, options: SignedUrlOptions): Promise<string>;
  /** Removes what `put` wrote; objects that do not exist are fine. */
  delete(objects: readonly StoredObject[]): Promise<void>;
}

/**
 * Keys are `upload/<uuid>/<hex>/<hex>/<uuid>.<ext>[.xmp]` (originals, sidecars),
 * `thumbs/<uuid>/<hex>/<hex>/<uuid>-<kind>.<ext>` (previews), `profile/<uuid>/<uuid>.<ext>`
 * (profile images) and `downloads/<uuid>/<uuid>.zip` (archives, expired by the bucket's
 * lifecycle): nothing that could leave the store.
 */
export const safeKey = /^(upload|thumbs|profile|downloads)(\/[A-Za-z0-9._-]+)+$/;

export const assertSafeKey = (key: string): void => {
  if (!safeKey.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Refusing storage key ${JSON.stringify(key)}`);
  }
};
