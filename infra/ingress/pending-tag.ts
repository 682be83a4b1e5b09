/**
 * The `ingress=pending` tag: every original the ingress writes carries it from its creation until
 * the upload is recorded. If the process dies between the object's completion and the record, the
 * object keeps the tag, and the bucket's lifecycle rule expires objects tagged so after a day
 * (docs/large-uploads.md): no orphan stays. A recorded upload's objects lose the tag here, before
 * the answer. The local folder store keeps no tags, and needs none (nothing expires there).
 */
import { PutObjectTaggingCommand } from '@aws-sdk/client-s3';
import { log } from '#shared/core/log.ts';
import type { StoredFile } from '#shared/services/upload/stored-upload.service.ts';
import { S3Store } from '#shared/storage/s3-store.ts';
import type { OriginalsStore } from '#shared/storage/store.ts';

export const pendingTag = { key: 'ingress', value: 'pending' } as const;
export const pendingTagging = `${pendingTag.key}=${pendingTag.value}`;

/** The tagging the store's objects are written with: the pending tag in S3, none in a folder. */
export const taggingFor = (store: OriginalsStore): string | undefined => (store instanceof S3Store ? pendingTagging : undefined);

const attempts = 3;

/**
 * Removes the pending tag of recorded files (an empty tag set: S3's DeleteObjectTagging does the
 * same, but S3-compatible test servers lack it). Tried three times; a file still tagged would be
 * expired while its asset exists, so that is logged as an error (the errors alarm).
 */
export const clearPendingTag = async (store: OriginalsStore, files: readonly (StoredFile | undefined)[]): Promise<void> => {
  if (!(store instanceof S3Store)) return;
  await Promise.all(
    files
      .filter((file): file is StoredFile => file !== undefined)
      .map(async (file) => {
        for (let attempt = 1; ; attempt++) {
          try {
            await store.client.send(
              new PutObjectTaggingCommand({ Bucket: store.bucket, Key: file.key, VersionId: file.version, Tagging: { TagSet: [] } }),
            );
            return;
          } catch (error) {
            if (attempt >= attempts) {
              log.error('A recorded original keeps its ingress=pending tag', { key: file.key, error: String(error) });
              return;
            }
          }
        }
      }),
  );
};
