/**
 * One upload's processing, a named linear sequence of steps (docs/media.md): each step a module of
 * steps/ with an idempotent `run` and a `skip(settings)`, run in this order; a step's outcome
 * ('gone', 'unsupported') ends the run. A new step is one module and one row here.
 */
import { getAssetWithFaces } from '../../db/asset.repository.ts';
import { imageSize } from '../../media/images.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { raise } from '../../realtime/outbox.ts';
import { originalsStore } from '../../storage/originals.ts';
import { ownerDetails } from '../asset-detail.ts';
import { readConfig } from '../config.reader.ts';
import { makePersonThumbnailWith } from './person-thumbnails.ts';
import type { MediaOutcome, MediaStep, Preview, UploadContext } from './step.ts';
import { editsStep } from './steps/edits.ts';
import { facesStep } from './steps/faces.ts';
import { personThumbnailsStep } from './steps/person-thumbnails.ts';
import { placesStep } from './steps/places.ts';
import { previewsStep } from './steps/previews.ts';

/** The steps of an upload, in their order. */
export const uploadSteps: readonly MediaStep[] = [placesStep, previewsStep, editsStep, personThumbnailsStep, facesStep];

/**
 * Immich's jobs for one uploaded asset, run again by the jobs that need its previews: `not-yet`:
 * the asset is not recorded (its upload is still in progress, or failed); `gone`: deleted
 * meanwhile; `unsupported`: no previews can be made of it. Running it again makes the same files
 * and records the same values.
 */
export const processUpload = async (assetId: string, options: { notify?: boolean } = {}): Promise<MediaOutcome> => {
  const found = await getAssetWithFaces(assetId);
  if (!found) return 'not-yet';
  const { asset, faces } = found;
  if (asset.type !== 'IMAGE' && asset.type !== 'VIDEO') return 'unsupported';
  const settings = await readConfig();
  const context: UploadContext = { asset, faces, settings, store: await originalsStore(), personThumbnail: makePersonThumbnail };
  for (const step of uploadSteps) {
    if (step.skip?.(settings, context)) continue;
    const outcome = await step.run(context);
    if (outcome) return outcome;
  }
  // An upload's previews exist: its owner's apps are told, as Immich tells them once its thumbnail
  // job is done (never of a hidden or locked asset, nor of previews made again).
  if (options.notify && (asset.visibility === 'timeline' || asset.visibility === 'archive'))
    raise({ kind: 'asset-uploaded', ownerId: asset.ownerId, assetId: asset.id, load: ownerDetails });
  return 'made';
};

/** The asset's stored (unedited) preview and its size; none when it has none yet, or it cannot be read. */
export const storedPreview = async (asset: AssetRecord): Promise<Preview | undefined> => {
  const bytes = asset.resizePath ? await (await originalsStore()).get(asset.resizePath) : undefined;
  const size = bytes ? await imageSize(bytes) : undefined;
  return bytes && size ? { bytes, ...size } : undefined;
};

/**
 * Ensure a preview exists: the asset's stored preview, or, when it has none, its upload's run
 * (which makes its previews and what comes after them), whose outcome is then the answer.
 */
export const ensurePreview = async (asset: AssetRecord): Promise<Preview | MediaOutcome> =>
  (await storedPreview(asset)) ?? processUpload(asset.id);

/**
 * A person's thumbnail again, after their feature face changed (PUT /person/:id, handed on as a
 * job: shared/storage/media-jobs.ts), or when face detection made them: cropped from the preview
 * of the asset now chosen, or, when that asset has no preview yet, made with its previews.
 */
export const makePersonThumbnail = (ownerId: string, personId: string): Promise<MediaOutcome> =>
  makePersonThumbnailWith(ownerId, personId, ensurePreview, async () => (await readConfig()).thumbnail.quality);
