import type { Readable } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import { FileStore } from './file-store.ts';
import { S3Store } from './s3-store.ts';
import type { OriginalsStore, StoredObject } from './store.ts';

/** Parts of 8 MB, two in flight: what an archive holds in memory, however large it grows. */
const partSize = 8 * 1024 * 1024;

/**
 * Writes a stream of unknown length into the store: in S3 as a multipart upload
 * (@aws-sdk/lib-storage, bounded memory; aborted if the stream fails), in a folder through a
 * temporary file. Its own module, so only the functions that write archives carry lib-storage.
 */
export const putStream = async (store: OriginalsStore, key: string, body: Readable, contentType: string): Promise<StoredObject> => {
  if (store instanceof S3Store) {
    const upload = new Upload({
      client: store.client,
      params: { Bucket: store.bucket, Key: key, Body: body, ContentType: contentType },
      partSize,
      queueSize: 2,
      leavePartsOnError: false,
    });
    const result = await upload.done();
    return result.VersionId ? { key, version: result.VersionId } : { key };
  }
  if (store instanceof FileStore) return store.putStream(key, body);
  throw new Error('This store cannot take a stream');
};
