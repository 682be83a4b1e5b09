/**
 * Immich v3's photo editor rules (docs/immich-compatibility.md, "The photo editor"): which assets
 * may be edited, and whether a list of edits fits the image.
 */
import { Invalid } from '../core/errors.ts';
import { type AssetRecord, dimensionsOf, type PhotoEditRequest } from '../model/asset.ts';

/** Immich's checks before it stores edits, in its order and with its words. */
export const checkPhotoEdits = (asset: AssetRecord, edits: readonly PhotoEditRequest[]): void => {
  if (asset.type !== 'IMAGE') throw new Invalid('Only images can be edited');
  if (asset.livePhotoVideoId) throw new Invalid('Editing live photos is not supported');
  if (asset.exif.projectionType === 'EQUIRECTANGULAR' || asset.originalFileName.toLowerCase().endsWith('.insp'))
    throw new Invalid('Editing panorama images is not supported');
  const path = asset.originalPath.toLowerCase();
  if (path.endsWith('.gif')) throw new Invalid('Editing GIF images is not supported');
  if (path.endsWith('.svg')) throw new Invalid('Editing SVG images is not supported');
  // The size as shown, before any edit (a crop is in those pixels).
  const { width, height } = dimensionsOf({ exif: asset.exif });
  if (!width || !height) throw new Invalid('Asset dimensions are not available for editing');
  const crop = edits.find((edit) => edit.action === 'crop');
  if (!crop) return;
  if (edits[0]?.action !== 'crop') throw new Invalid('Crop action must be the first edit action');
  const { x, y, width: cropWidth, height: cropHeight } = crop.parameters;
  if (x + cropWidth > width || y + cropHeight > height) throw new Invalid('Crop parameters are out of bounds');
};
