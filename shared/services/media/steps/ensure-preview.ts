/**
 * Ensure a preview exists (docs/media.md, "Jobs"): the step a job that needs the asset's preview
 * runs first. It puts the asset's stored (unedited) preview and the original's size in the run's
 * context; an asset with none gets its upload's steps run instead (which make the preview, and with
 * it what the job wanted), whose outcome ends the job. No job calls another job.
 */
import { imageSize } from '../../../media/images.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { OriginalsStore } from '../../../storage/originals.ts';
import type { MediaOutcome, MediaStep, Preview, UploadContext } from '../step.ts';

/** The asset's stored (unedited) preview and its size; none when it has none yet, or it cannot be read. */
const storedPreview = async (asset: AssetRecord, store: OriginalsStore): Promise<Preview | undefined> => {
  const bytes = asset.resizePath ? await store.get(asset.resizePath) : undefined;
  const size = bytes ? await imageSize(bytes) : undefined;
  return bytes && size ? { bytes, ...size } : undefined;
};

/** The original's size upright, from its EXIF (turned for orientations 5 to 8); else the preview's, which has its shape. */
const originalSize = (asset: AssetRecord, preview: { width: number; height: number }): { width: number; height: number } => {
  const { exifImageWidth: width, exifImageHeight: height, orientation } = asset.exif;
  if (!width || !height) return preview;
  const turned = Number(orientation ?? 1) >= 5;
  return turned ? { width: height, height: width } : { width, height };
};

/**
 * The step; `withoutPreview` answers for an asset that has none (by default the upload's steps,
 * run for it: `context.upload`).
 */
export const ensurePreviewStep = (
  withoutPreview: (context: UploadContext) => Promise<MediaOutcome> = (context) => context.upload(),
): MediaStep => ({
  name: 'ensure-preview',
  run: async (context) => {
    const preview = context.preview ?? (await storedPreview(context.asset, context.store));
    if (!preview) return withoutPreview(context);
    context.preview = preview;
    context.original ??= originalSize(context.asset, preview);
    return undefined;
  },
});
