/**
 * Immich's thumbnail job for one asset: the JPEG preview, the WebP thumbnail and the thumbhash,
 * made from the original with the configured `thumbnail.*` settings, stored beside it and recorded
 * on the asset. Running it again makes the same files and records the same values. `gone`: the
 * asset or its original was deleted meanwhile; `unsupported`: its decoder cannot read it.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { log } from '../../../core/log.ts';
import * as assetRepo from '../../../db/asset.repository.ts';
import { previewKeys } from '../../../domain/media-files.ts';
import { isRaw } from '../../../domain/media-types.ts';
import { renderPreviews } from '../../../media/images.ts';
import { embeddedPreview } from '../../../media/raw.ts';
import { renderPoster } from '../../../media/video.ts';
import type { OriginalsStore, StoredObject } from '../../../storage/originals.ts';
import type { MediaStep } from '../step.ts';

/**
 * Where ffmpeg reads a stored video: its own file (the local folder), else a copy streamed to a
 * temporary file (S3; the function's ephemeral storage is sized for the largest upload). Never
 * held in memory. Undefined when the object is gone.
 */
const withVideoFile = async <T>(store: OriginalsStore, key: string, use: (path: string) => Promise<T>): Promise<T | undefined> => {
  if (store.localPath) return (await store.exists(key)) ? use(store.localPath(key)) : undefined;
  const stream = await store.getStream(key);
  if (!stream) return undefined;
  const folder = await mkdtemp(join(tmpdir(), 'video-'));
  try {
    const path = join(folder, 'original');
    await pipeline(stream, createWriteStream(path));
    return await use(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

export const previewsStep: MediaStep = {
  name: 'previews',
  run: async (context) => {
    const { asset, store } = context;
    const settings = context.settings.thumbnail;
    // A video's previews are those of its poster frame (ffmpeg, reading the file itself: a video of
    // gigabytes is never held in memory), a RAW file's those of the JPEG the camera embedded
    // (oriented as the RAW says), made like a photo's. Reading the store may fail (and be retried);
    // a file its decoder cannot read leaves the asset usable, unresized.
    let unreadable: unknown;
    const undecodable = (error: unknown): undefined => {
      unreadable = error;
      return undefined;
    };
    let previews: Awaited<ReturnType<typeof renderPreviews>> | undefined;
    if (asset.type === 'VIDEO') {
      const poster = await withVideoFile(store, asset.originalPath, (path) => renderPoster(path, settings.jpegSize).catch(undecodable));
      if (poster) previews = await renderPreviews(poster, settings).catch(undecodable);
      else if (!unreadable) return 'gone';
    } else {
      const original = await store.get(asset.originalPath);
      if (!original) return 'gone';
      if (isRaw(asset.originalFileName)) {
        const embedded = embeddedPreview(original);
        if (!embedded) undecodable(new Error('RAW file without an embedded preview'));
        else previews = await renderPreviews(embedded, settings, { orientation: Number(asset.exif.orientation ?? 1) }).catch(undecodable);
      } else previews = await renderPreviews(original, settings).catch(undecodable);
    }
    if (!previews) {
      log.warn('No previews for an asset its decoder cannot read', { assetId: asset.id, error: String(unreadable) });
      return 'unsupported';
    }
    const keys = previewKeys(asset);
    const stored: StoredObject[] = [];
    stored.push(await store.put(keys.preview, previews.preview, 'image/jpeg'));
    stored.push(await store.put(keys.thumbnail, previews.thumbnail, 'image/webp'));
    const recorded = await assetRepo.recordMedia(asset.id, {
      resizePath: keys.preview,
      webpPath: keys.thumbnail,
      thumbhash: previews.thumbhash.toString('base64'),
    });
    if (!recorded.ok) {
      await store.delete(stored);
      return 'gone';
    }
    context.preview = { bytes: previews.preview, width: previews.previewWidth, height: previews.previewHeight };
    context.original = { width: previews.width, height: previews.height };
    return undefined;
  },
};
