/**
 * An upload's objects in the originals store, all or none: what was stored is removed again when
 * a later put or the recording fails, so nothing is left half-written.
 */
import { log } from '../../core/log.ts';
import { mimeTypeOf } from '../../domain/media-types.ts';
import type { AssetRecord } from '../../model/asset.ts';
import type { UploadedFile } from '../../model/upload.ts';
import { originalsStore, type StoredObject } from '../../storage/originals.ts';

/** The original, its sidecar and a motion part's video, stored; if one put fails, those stored before it are removed. */
export const storeOriginals = async (
  asset: AssetRecord,
  file: UploadedFile,
  sidecar: UploadedFile | undefined,
  motion?: { asset: AssetRecord; data: Buffer; contentType: string },
): Promise<StoredObject[]> => {
  const store = await originalsStore();
  const stored: StoredObject[] = [];
  try {
    stored.push(await store.put(asset.originalPath, file.data, mimeTypeOf(file.fileName)));
    if (sidecar && asset.sidecarPath) stored.push(await store.put(asset.sidecarPath, sidecar.data, 'application/xml'));
    if (motion) stored.push(await store.put(motion.asset.originalPath, motion.data, motion.contentType));
    return stored;
  } catch (error) {
    await removeOriginals(stored);
    throw error;
  }
};

/** Removes stored objects after a failed upload; a failure to remove is logged with the keys, never thrown over the request's own error. */
export const removeOriginals = async (stored: readonly StoredObject[]): Promise<void> => {
  if (stored.length === 0) return;
  try {
    await (await originalsStore()).delete(stored);
  } catch (error) {
    // Logged with the keys so an operator can remove them; the request still reports its own error.
    log.error('Could not remove stored originals after a failed upload', {
      keys: stored.map((object) => object.key),
      error: String(error),
    });
  }
};
