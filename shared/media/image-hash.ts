/**
 * The perceptual hashes of an image file (shared/media/perceptual-hash.ts): decoded and shrunk by
 * wasm-vips (shared/media/images.ts), so only the media function loads it.
 */
import { greySquares } from './images.ts';
import { dctSize, dhashSize, hashOfGreys, type PerceptualHash } from './perceptual-hash.ts';

/** Both hashes of an image file (the asset's preview JPEG; any format libvips reads); undefined for a flat image. */
export const perceptualHash = async (image: Uint8Array): Promise<PerceptualHash | undefined> => {
  const [big, small] = await greySquares(image, [dctSize, dhashSize]);
  if (!big || !small) throw new Error('The image could not be decoded');
  return hashOfGreys(big, small);
};
