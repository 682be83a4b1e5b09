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
  /**
   * Stores a local file under `key`, streamed (never held in memory): a video's encoded version,
   * made in a temporary folder (docs/media.md, "Transcoding"). Replaces what the key held.
   */
  putFile(key: string, path: string, contentType: string): Promise<StoredObject>;
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
  /** The object's file, for a program that reads it itself (the local folder; ffmpeg). */
  localPath?(key: string): string;
  /** Removes what `put` wrote; objects that do not exist are fine. */
  delete(objects: readonly StoredObject[]): Promise<void>;
  /** Bytes `start` to `end` (inclusive) of an object: metadata and checksums read files in ranges. */
  getRange(key: string, start: number, end: number): Promise<Buffer>;
  /**
   * Starts a multipart upload of `key` whose parts are each checked against their SHA-1 (upload
   * sessions, docs/large-uploads.md); answers the upload's id.
   */
  createMultipart(key: string, contentType: string, size: number): Promise<string>;
  /**
   * A short-lived URL the client PUTs one part to, with the headers it must send (S3's presigned
   * UploadPart, signed with the part's SHA-1). Stores without one (the local folder) have the
   * server sign its own part URLs and call `putPart`.
   */
  partUrl?(key: string, uploadId: string, part: PartChecksum, expiresSeconds: number): Promise<PartTarget>;
  /** Stores one part (the local folder), after the caller checked its SHA-1. */
  putPart?(uploadId: string, partNumber: number, body: Buffer): Promise<void>;
  /** The parts received so far, in order. */
  listParts(key: string, uploadId: string): Promise<ReceivedPart[]>;
  /** Joins the parts into the object `key` (parts as declared, in order). */
  completeMultipart(key: string, uploadId: string, parts: readonly PartChecksum[]): Promise<StoredObject>;
  /** Drops an unfinished multipart upload and its parts; an unknown upload is fine. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

/** One part of a multipart upload: its number (from 1) and the SHA-1 of its bytes, base64. */
export interface PartChecksum {
  partNumber: number;
  sha1: string;
}

/** A part the store holds. */
export interface ReceivedPart {
  partNumber: number;
  size: number;
  /** What the store says identifies the part (S3's ETag); completion passes it back. */
  etag: string;
}

/** Where and how a client sends one part. */
export interface PartTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * Keys are `upload/<uuid>/<hex>/<hex>/<uuid>.<ext>[.xmp]` (originals, sidecars),
 * `thumbs/<uuid>/<hex>/<hex>/<uuid>-<kind>.<ext>` (previews), `profile/<uuid>/<uuid>.<ext>`
 * (profile images), `downloads/<uuid>/<uuid>.zip` (archives, expired by the bucket's
 * lifecycle) and `index/<uuid>/<kind>/<model>/<seq>-<uuid>.bin` (an owner's packed embedding index:
 * shared/db/vector-index.repository.ts): nothing that could leave the store.
 */
const safeKey = /^(upload|thumbs|profile|downloads|index)(\/[A-Za-z0-9._-]+)+$/;

export const assertSafeKey = (key: string): void => {
  if (!safeKey.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Refusing storage key ${JSON.stringify(key)}`);
  }
};
