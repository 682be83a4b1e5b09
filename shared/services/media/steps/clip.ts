/**
 * Immich's smart search job for one asset (docs/search.md): the CLIP embedding of its preview
 * JPEG, normalised, stored as half floats in its owner's embedding index under the model's name
 * (shared/db/vector-index.repository.ts), and the asset marked with the model. An upload's last
 * steps run it after its faces; a failure is logged and never costs the photo its previews (the
 * smartSearch job embeds it later). Hidden assets are skipped, as Immich's job skips them.
 */
import { log } from '../../../core/log.ts';
import * as assetRepo from '../../../db/asset.repository.ts';
import * as vectorIndexRepo from '../../../db/vector-index.repository.ts';
import { toHalfBytes, unitVector } from '../../../domain/vectors.ts';
import { encodeImage, type MlSettings, smartSearchEnabled } from '../../../ml/ml.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { MediaStep } from '../step.ts';
import { ensurePreviewStep } from './ensure-preview.ts';

/** The asset's embedding under the current model is in the index already. */
const embedded = (asset: AssetRecord, ml: MlSettings): boolean => asset.smartSearchModel === ml.clip.modelName;

/** Embeds one asset's preview and records it; `gone` when the asset went meanwhile. */
export const embedAsset = async (asset: AssetRecord, preview: Buffer, ml: MlSettings): Promise<'made' | 'gone'> => {
  const model = ml.clip.modelName;
  const vector = toHalfBytes(unitVector(await encodeImage(ml, preview)));
  await vectorIndexRepo.appendVectors(asset.ownerId, 'clip', model, [{ assetId: asset.id, vector }]);
  return (await assetRepo.recordSmartSearch(asset.id, model)).ok ? 'made' : 'gone';
};

/** The upload's step: after the previews (and faces), when smart search is on. */
export const clipStep: MediaStep = {
  name: 'clip',
  skip: (settings, { asset }) =>
    asset.visibility === 'hidden' ||
    !settings.machineLearning.enabled ||
    !settings.machineLearning.clip.enabled ||
    embedded(asset, settings.machineLearning),
  run: async ({ asset, preview, settings }) => {
    if (!preview || !(await smartSearchEnabled(settings.machineLearning))) return undefined;
    try {
      const outcome = await embedAsset(asset, preview.bytes, settings.machineLearning);
      log.info('clip', { assetId: asset.id, outcome });
    } catch (error) {
      log.error('Smart search embedding failed', { assetId: asset.id, error: String(error) });
    }
    return undefined;
  },
};

/**
 * The smartSearch queue's job for one asset (PUT /jobs/smartSearch, both generations): with
 * `force` (Immich's "all") embedded again, else only when it has no embedding under the current
 * model ("missing": a model change embeds every asset again under the new model's name). An asset
 * without a preview gets its upload's steps, which embed it. A failure is the job's (retried).
 */
export const clipJobSteps = (force: boolean): readonly MediaStep[] => [
  {
    name: 'clip-due',
    run: async ({ asset, settings }) =>
      asset.visibility === 'hidden' || (!force && embedded(asset, settings.machineLearning)) ? 'made' : undefined,
  },
  {
    name: 'clip-on',
    run: async ({ settings }) => ((await smartSearchEnabled(settings.machineLearning)) ? undefined : 'unsupported'),
  },
  ensurePreviewStep(),
  {
    name: 'clip',
    run: async ({ asset, preview, settings }) => (preview ? embedAsset(asset, preview.bytes, settings.machineLearning) : undefined),
  },
];
