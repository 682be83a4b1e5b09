import type { Readable } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import { FileStore } from './file-store.ts';
import { S3Store } from './s3-store.ts';
import type { OriginalsStore, StoredObject } from './store.ts';

const mebibyte = 1024 * 1024;
/** Parts of 8 MB, two in flight: what an archive holds in memory, however large it grows. */
const defaultPartSize = 8 * mebibyte;
/** S3's most parts in one multipart upload. */
export const maxParts = 10_000;
/**
 * The largest part a stream is cut into: with two in flight, what one stream may hold in memory
 * (the ingress on a 0.5 GiB instance; docs/large-uploads.md). 10,000 of them are S3's largest
 * object a stream can be written as here (320 GiB).
 */
export const maxPartSize = 32 * mebibyte;
export const maxStreamBytes = maxParts * maxPartSize;

/**
 * The part size for a stream of (at most) `size` bytes: 8 MB, or more in whole MiB when 10,000
 * parts of 8 MB would not hold it. Unknown size: 8 MB (then at most 80 GB).
 */
export const partSizeFor = (size: number | undefined): number => {
  if (size === undefined || !Number.isFinite(size)) return defaultPartSize;
  const needed = Math.ceil(size / maxParts / mebibyte) * mebibyte;
  return Math.min(Math.max(defaultPartSize, needed), maxPartSize);
};

export interface PutStreamOptions {
  /** The stream's length or its upper bound, when known: it chooses the part size (above). */
  size?: number;
  /** S3 object tags at creation (`key=value&...`); the local folder keeps none. */
  tagging?: string;
  /** S3's storage class (originals: Intelligent-Tiering, as shared/storage/s3-store.ts stores them). */
  storageClass?: 'STANDARD' | 'INTELLIGENT_TIERING';
}

/**
 * Writes a stream of unknown length into the store: in S3 as a multipart upload
 * (@aws-sdk/lib-storage, bounded memory: two parts in flight; aborted if the stream fails, so a
 * stream destroyed with an error leaves no upload and no parts), in a folder through a temporary
 * file. Its own module, so only the functions that write streams carry lib-storage.
 */
export const putStream = async (
  store: OriginalsStore,
  key: string,
  body: Readable,
  contentType: string,
  options: PutStreamOptions = {},
): Promise<StoredObject> => {
  if (store instanceof S3Store) {
    const upload = new Upload({
      client: store.client,
      params: {
        Bucket: store.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ...(options.tagging ? { Tagging: options.tagging } : {}),
        ...(options.storageClass ? { StorageClass: options.storageClass } : {}),
      },
      partSize: partSizeFor(options.size),
      queueSize: 2,
      leavePartsOnError: false,
    });
    const result = await upload.done();
    return result.VersionId ? { key, version: result.VersionId } : { key };
  }
  if (store instanceof FileStore) return store.putStream(key, body);
  throw new Error('This store cannot take a stream');
};
