/**
 * Immich's OCR job (docs/immich-compatibility.md, "OCR"): the text in an asset's preview found by
 * the machine-learning back end (shared/ml/ml.ts: the user's Immich ML service, else the local
 * PP-OCR models) and recorded, replacing the last run's (shared/services/ocr.service.ts). After an
 * upload's previews it never costs the photo them: a failure is logged and the ocr job finds its
 * text later. Hidden assets (a live photo's video) are skipped, as Immich's.
 */
import { log } from '../../../core/log.ts';
import { detectText, ocrEnabled } from '../../../ml/ml.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { SystemConfig } from '../../../model/config.ts';
import { recordOcr } from '../../ocr.service.ts';
import type { MediaOutcome, MediaStep, Preview } from '../step.ts';
import { ensurePreviewStep } from './ensure-preview.ts';

/** The text of one asset's preview found and recorded; `gone` when the asset was deleted meanwhile. */
export const findText = async (
  asset: Pick<AssetRecord, 'id' | 'ownerId'>,
  preview: Preview,
  machineLearning: SystemConfig['machineLearning'],
): Promise<'done' | 'gone'> => {
  const lines = await detectText(machineLearning, preview.bytes);
  const outcome = await recordOcr(asset, lines);
  log.info('ocr', { assetId: asset.id, lines: lines.length, outcome });
  return outcome;
};

const ocrDue = (asset: AssetRecord): boolean => asset.visibility !== 'hidden' && asset.deletedAt === null;

/** The upload's step, after faces: once per asset (`ocrAt`), on the preview just made. */
export const ocrStep: MediaStep = {
  name: 'ocr',
  skip: (settings, { asset }) => asset.ocrAt !== undefined || !ocrDue(asset) || !ocrEnabled(settings.machineLearning),
  run: async ({ asset, preview, settings }): Promise<MediaOutcome | undefined> => {
    if (!preview) return undefined;
    try {
      return (await findText(asset, preview, settings.machineLearning)) === 'gone' ? 'gone' : undefined;
    } catch (error) {
      log.error('OCR failed', { assetId: asset.id, error: String(error) });
      return undefined;
    }
  },
};

/**
 * The ocr queue's job for one asset (PUT /jobs/ocr `start`): without `force` (Immich's "missing")
 * only an asset never looked at, neither hidden nor trashed; with `force` ("all", which Immich
 * begins by deleting every line) every asset again, a hidden or trashed one losing its lines. An
 * asset without a preview gets its upload's steps run, which find its text.
 */
export const ocrJobSteps = (force: boolean): readonly MediaStep[] => [
  {
    name: 'ocr-due',
    run: async ({ asset, settings }) => {
      if (!ocrEnabled(settings.machineLearning)) return 'unsupported';
      if (ocrDue(asset)) return asset.ocrAt !== undefined && !force ? 'made' : undefined;
      if (force && asset.ocrAt !== undefined) return (await recordOcr(asset, [])) === 'gone' ? 'gone' : 'made';
      return 'made';
    },
  },
  ensurePreviewStep(async (context) => (context.asset.ocrAt !== undefined ? 'unsupported' : context.upload())),
  {
    name: 'ocr',
    run: async ({ asset, preview, settings }) =>
      preview && (await findText(asset, preview, settings.machineLearning)) === 'gone' ? 'gone' : undefined,
  },
];
