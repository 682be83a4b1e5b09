/**
 * The media function's jobs that are not an upload (shared/storage/media-jobs.ts), each a list of
 * named steps the handler runs on the asset as it is now (pipeline.ts, `runJobSteps`; docs/media.md,
 * "Jobs"): where a job needs a preview the asset has not got, its ensure-preview step runs the
 * upload's steps.
 */
import * as personRepo from '../../db/person.repository.ts';
import { duplicateDetectionEnabled } from '../../ml/ml.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { facialRecognitionEnabled, recognizePendingFaces } from './faces.service.ts';
import { makePersonThumbnail } from './pipeline.ts';
import type { MediaStep } from './step.ts';
import { findDuplicates } from './steps/duplicates.ts';
import { editsReady, removeEditedFiles, renderEdits } from './steps/edits.ts';
import { ensurePreviewStep } from './steps/ensure-preview.ts';
import { detectFaces } from './steps/faces.ts';

/** Facial recognition switched off: the faces jobs have nothing to do. */
const recognitionOn: MediaStep = {
  name: 'recognition-on',
  run: async ({ settings }) => (facialRecognitionEnabled(settings.machineLearning) ? undefined : 'unsupported'),
};

/**
 * Immich's face detection job for one asset (PUT /jobs/faceDetection, both generations): from its
 * stored preview, whether or not faces were looked for before (`force`), or only if they were not.
 * An asset without a preview gets its previews made, which detect its faces (one whose faces were
 * looked for already has none to look in again).
 */
export const faceDetectionSteps = (force: boolean): readonly MediaStep[] => [
  { name: 'faces-due', run: async ({ asset }) => (asset.facesDetected && !force ? 'made' : undefined) },
  recognitionOn,
  ensurePreviewStep(async (context) => (context.asset.facesDetected ? 'unsupported' : context.upload())),
  {
    name: 'faces',
    run: async ({ asset, preview, original, settings, personThumbnail }) => {
      // The unedited preview: face boxes are in the original's pixels, as the edits are.
      if (preview && original) await detectFaces(asset, preview, original, settings.machineLearning, { tolerant: false, personThumbnail });
      return undefined;
    },
  },
];

const thumbnailsOfNewPeople = async (asset: AssetRecord, personIds: readonly string[]): Promise<void> => {
  for (const person of personIds.length === 0 ? [] : await personRepo.getMany(asset.ownerId, [...personIds]))
    if (!person.thumbnailPath) await makePersonThumbnail(asset.ownerId, person.id);
};

/**
 * Immich's facial recognition job for one asset (PUT /jobs/facialRecognition): its faces still
 * without a person (in the face index) recognised again, with the settings as they are now; then
 * the thumbnails of the people made.
 */
export const faceRecognitionSteps: readonly MediaStep[] = [
  recognitionOn,
  {
    name: 'recognize',
    run: async ({ asset, settings }) => {
      await thumbnailsOfNewPeople(asset, await recognizePendingFaces(asset, settings.machineLearning));
      return undefined;
    },
  },
];

/**
 * Immich's edit thumbnail job (after PUT or DELETE /assets/:id/edits): the asset's edited files for
 * its edits as they are now (shared/services/media/steps/edits.ts). An asset whose edits were
 * removed gets its unedited previews and thumbhash again (its upload's steps), and its edited files go.
 */
export const editSteps: readonly MediaStep[] = [
  {
    name: 'edits-removed',
    skip: (_settings, { asset }) => asset.edits.length > 0,
    run: async ({ asset, store, upload }) => {
      await removeEditedFiles(asset, store);
      const outcome = await upload();
      editsReady(asset);
      return outcome;
    },
  },
  {
    name: 'edits',
    skip: (_settings, { asset }) => asset.edits.length === 0,
    run: ({ asset, store, settings }) => renderEdits(asset, store, settings.thumbnail),
  },
];

/**
 * Immich's duplicate detection job for one asset (the duplicateDetection queue started): its
 * preview hashed and its neighbours grouped, whether or not it was looked at before (`force`), or
 * only if it was not; images only, and nothing with detection switched off. An asset without a
 * preview gets its upload's steps run, which detect its duplicates.
 */
export const duplicateDetectionSteps = (force: boolean): readonly MediaStep[] => [
  {
    name: 'duplicates-due',
    run: async ({ asset, settings }) =>
      (asset.duplicatesDetectedAt !== undefined && !force) || asset.type !== 'IMAGE' || !duplicateDetectionEnabled(settings.machineLearning)
        ? 'unsupported'
        : undefined,
  },
  ensurePreviewStep(),
  {
    name: 'duplicates',
    run: async ({ asset, preview, settings }) => {
      if (preview) await findDuplicates(asset, preview, settings.machineLearning, { tolerant: false });
      return undefined;
    },
  },
];

export type { MediaJob, MediaJobEvent } from '../../storage/media-jobs.ts';
