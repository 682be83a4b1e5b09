/**
 * Immich's duplicate detection, once an asset (docs/immich-compatibility.md, "Duplicates"): the
 * preview just made hashed (shared/media/perceptual-hash.ts) and its hash stored, then the asset's
 * neighbours grouped with it (shared/services/duplicate.service.ts). Switched on by
 * `machineLearning.duplicateDetection.enabled` alone: the hashes need no model. Images only (a
 * video's poster, often black, would group unrelated videos). A failure is logged, never costs
 * the photo its previews; the duplicateDetection queue finds it later.
 */
import { log } from '../../../core/log.ts';
import * as vectorIndexRepo from '../../../db/vector-index.repository.ts';
import { perceptualHash } from '../../../media/image-hash.ts';
import { packHash } from '../../../media/perceptual-hash.ts';
import { duplicateDetectionEnabled } from '../../../ml/ml.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { SystemConfig } from '../../../model/config.ts';
import { detectDuplicates, hashModel } from '../../duplicate-detection.service.ts';
import type { MediaStep, Preview } from '../step.ts';

/** The asset's preview hashed and its hash stored (replacing an earlier one); none for a flat image (shared/media/perceptual-hash.ts). */
const recordHash = async (asset: Pick<AssetRecord, 'id' | 'ownerId'>, preview: Uint8Array): Promise<Uint8Array | undefined> => {
  const hash = await perceptualHash(preview);
  if (!hash) return undefined;
  const packed = packHash(hash);
  await vectorIndexRepo.appendVectors(asset.ownerId, 'phash', hashModel, [{ assetId: asset.id, vector: packed }]);
  return packed;
};

/** The asset's hash from its preview, then its detection; `tolerant`: a failure is logged, not thrown. */
export const findDuplicates = async (
  asset: AssetRecord,
  preview: Preview,
  machineLearning: SystemConfig['machineLearning'],
  options: { tolerant: boolean },
): Promise<void> => {
  try {
    const hash = await recordHash(asset, preview.bytes);
    const outcome = await detectDuplicates(asset.id, machineLearning, hash);
    log.info('duplicates', { assetId: asset.id, outcome });
  } catch (error) {
    if (!options.tolerant) throw error;
    log.error('Duplicate detection failed', { assetId: asset.id, error: String(error) });
  }
};

export const duplicatesStep: MediaStep = {
  name: 'duplicates',
  // Looked at already (a repeated upload run): a dismissal is kept until an "all" run.
  skip: (settings, { asset }) =>
    asset.type !== 'IMAGE' || asset.duplicatesDetectedAt !== undefined || !duplicateDetectionEnabled(settings.machineLearning),
  run: async ({ asset, preview, settings }) => {
    if (preview) await findDuplicates(asset, preview, settings.machineLearning, { tolerant: true });
    return undefined;
  },
};
