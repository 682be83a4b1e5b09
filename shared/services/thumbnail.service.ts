import { Permission, requireAsset } from '../access/access.ts';
import { Missing } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';
import { originalsStore } from '../storage/originals.ts';

// Serving only: the function that serves previews does not carry the image codecs that make them (media.service.ts).

export type ThumbnailFormat = 'WEBP' | 'JPEG';

/**
 * GET /asset/thumbnail/:id: the WebP thumbnail, or with `format=JPEG` the preview (a WebP asked
 * of an asset that has only a preview gets the preview, as Immich does); 404 before they exist.
 */
export const getThumbnail = async (
  auth: Auth,
  id: string,
  format: ThumbnailFormat = 'WEBP',
): Promise<{ bytes: Buffer; contentType: string }> => {
  const { asset } = await requireAsset(auth, Permission.AssetView, id);
  const key = format === 'WEBP' && asset.webpPath ? asset.webpPath : asset.resizePath;
  if (!key) throw new Missing(`No thumbnail found for asset ${asset.id}`);
  const bytes = await (await originalsStore()).get(key);
  if (!bytes) throw new Missing(`No thumbnail found for asset ${asset.id}`);
  return { bytes, contentType: key.endsWith('.webp') ? 'image/webp' : 'image/jpeg' };
};
