/**
 * Immich's face detection and recognition, once an asset (docs/faces.md), from the preview just
 * made; the faceDetection job runs them again (shared/services/media/jobs.ts). Faces never cost an
 * upload its previews: a failure is logged, and the faceDetection job finds the faces later.
 */
import { log } from '../../../core/log.ts';
import * as personRepo from '../../../db/person.repository.ts';
import type { AssetRecord } from '../../../model/asset.ts';
import type { SystemConfig } from '../../../model/config.ts';
import { facialRecognitionEnabled, findFaces } from '../faces.service.ts';
import type { MediaStep, PersonThumbnailMaker, Preview } from '../step.ts';

/**
 * Face detection and recognition of one asset (shared/services/media/faces.service.ts), then the
 * thumbnails of the people it made or gave their first face to (cropped from their best face's
 * preview, as Immich's person thumbnail job does).
 */
export const detectFaces = async (
  asset: AssetRecord,
  preview: Preview,
  original: { width: number; height: number },
  machineLearning: SystemConfig['machineLearning'],
  options: { tolerant: boolean; personThumbnail: PersonThumbnailMaker },
): Promise<void> => {
  const found = await findFaces(asset, preview, original, machineLearning).catch((error: unknown) => {
    if (!options.tolerant) throw error;
    log.error('Face detection failed', { assetId: asset.id, error: String(error) });
    return undefined;
  });
  if (found) log.info('faces', { assetId: asset.id, detected: found.detected, known: found.known, outcomes: found.outcomes });
  const ids = [...new Set(found?.people ?? [])];
  for (const person of ids.length === 0 ? [] : await personRepo.getMany(asset.ownerId, ids))
    if (!person.thumbnailPath) await options.personThumbnail(asset.ownerId, person.id);
};

export const facesStep: MediaStep = {
  name: 'faces',
  skip: (settings, { asset }) => asset.facesDetected === true || !facialRecognitionEnabled(settings.machineLearning),
  run: async ({ asset, preview, original, settings, personThumbnail }) => {
    if (preview && original) await detectFaces(asset, preview, original, settings.machineLearning, { tolerant: true, personThumbnail });
    return undefined;
  },
};
