import { log } from '../core/log.ts';
import { getAsset, recordMedia } from '../db/asset.repository.ts';
import { renderPreviews } from '../media/images.ts';
import type { AssetRecord } from '../model/asset.ts';
import { originalsStore, type StoredObject } from '../storage/originals.ts';
import { readConfig } from './config.reader.ts';

/**
 * Where an asset's previews are kept: `thumbs/<owner>/<ab>/<cd>/<id>-preview.jpeg` and
 * `…-thumbnail.webp`, beside `upload/` (the originals), so the bucket's object-created events for
 * `upload/` reach the media function and its own writes do not.
 */
export const previewKeys = (asset: Pick<AssetRecord, 'id' | 'ownerId'>): { preview: string; thumbnail: string } => {
  const folder = `thumbs/${asset.ownerId}/${asset.id.slice(0, 2)}/${asset.id.slice(2, 4)}`;
  return { preview: `${folder}/${asset.id}-preview.jpeg`, thumbnail: `${folder}/${asset.id}-thumbnail.webp` };
};

/** An original's key names its asset: `upload/<owner>/<ab>/<cd>/<assetId>.<ext>` (previews and sidecars are not originals). */
export const assetIdOfOriginalKey = (key: string): string | undefined =>
  /^upload\/[0-9a-f-]{36}\/[0-9a-f]{2}\/[0-9a-f-]{2}\/([0-9a-f-]{36})(\.[a-z0-9]+)?$/.exec(key)?.[1];

/** Whether an original is (still) stored: an object event for a file since removed has nothing to do. */
export const originalExists = async (key: string): Promise<boolean> => (await originalsStore()).exists(key);

export type MediaOutcome = 'made' | 'not-yet' | 'gone' | 'unsupported';

/**
 * Immich's thumbnail jobs for one asset: the JPEG preview, the WebP thumbnail and the thumbhash,
 * made from the original with the configured `thumbnail.*` settings, stored beside it and recorded
 * on the asset. Running it again makes the same files and records the same values. `not-yet`: the
 * asset is not recorded (its upload is still in progress, or failed); `gone`: deleted meanwhile.
 */
export const generateMedia = async (assetId: string): Promise<MediaOutcome> => {
  const asset = await getAsset(assetId);
  if (!asset) return 'not-yet';
  // Videos get their poster frame from ffmpeg (not built yet, docs/immich-compatibility.md).
  if (asset.type !== 'IMAGE') return 'unsupported';
  const store = await originalsStore();
  const original = await store.get(asset.originalPath);
  if (!original) return 'gone';
  const { thumbnail: settings } = await readConfig();
  let previews: Awaited<ReturnType<typeof renderPreviews>>;
  try {
    previews = await renderPreviews(original, settings);
  } catch (error) {
    // Not an image libvips reads (e.g. RAW without a decoder): the asset stays usable, unresized.
    log.warn('No previews for an asset its decoder cannot read', { assetId, error: String(error) });
    return 'unsupported';
  }
  const keys = previewKeys(asset);
  const stored: StoredObject[] = [];
  stored.push(await store.put(keys.preview, previews.preview, 'image/jpeg'));
  stored.push(await store.put(keys.thumbnail, previews.thumbnail, 'image/webp'));
  const recorded = await recordMedia(asset.id, {
    resizePath: keys.preview,
    webpPath: keys.thumbnail,
    thumbhash: previews.thumbhash.toString('base64'),
  });
  if (recorded) return 'made';
  await store.delete(stored);
  return 'gone';
};
