/**
 * The media function's jobs that are not an upload (shared/storage/media-jobs.ts): each runs on
 * an asset as it is now, and where it needs a preview the asset has not got, the upload's run
 * makes it (shared/services/media/pipeline.ts, ensurePreview).
 */
import { getAsset } from '../../db/asset.repository.ts';
import { getPeople } from '../../db/person.repository.ts';
import type { AssetRecord } from '../../model/asset.ts';
import { originalsStore } from '../../storage/originals.ts';
import { readConfig } from '../config.reader.ts';
import { facialRecognitionEnabled, recognizePendingFaces } from './faces.service.ts';
import { makePersonThumbnail, processUpload, storedPreview } from './pipeline.ts';
import type { MediaOutcome } from './step.ts';
import { editsReady, removeEditedFiles, renderEdits } from './steps/edits.ts';
import { detectFaces } from './steps/faces.ts';

/**
 * Immich's face detection job for one asset (PUT /jobs/faceDetection, both generations): from its
 * stored preview, whether or not faces were looked for before (`force`), or only if they were not.
 * An asset without a preview gets its previews made, which detect its faces.
 */
export const detectAssetFaces = async (assetId: string, force: boolean): Promise<MediaOutcome> => {
  const asset = await getAsset(assetId);
  if (!asset) return 'gone';
  if (asset.facesDetected && !force) return 'made';
  const { machineLearning } = await readConfig();
  if (!facialRecognitionEnabled(machineLearning)) return 'unsupported';
  // The unedited preview: face boxes are in the original's pixels, as the edits are.
  const preview = await storedPreview(asset);
  if (!preview) return asset.facesDetected ? 'unsupported' : processUpload(asset.id);
  await detectFaces(asset, preview, originalSize(asset, preview), machineLearning, {
    tolerant: false,
    personThumbnail: makePersonThumbnail,
  });
  return 'made';
};

/**
 * Immich's facial recognition job for one asset (PUT /jobs/facialRecognition): its faces still
 * without a person (in the face index) recognised again, with the settings as they are now; then
 * the thumbnails of the people made.
 */
export const recognizeAssetFaces = async (assetId: string): Promise<MediaOutcome> => {
  const asset = await getAsset(assetId);
  if (!asset) return 'gone';
  const { machineLearning } = await readConfig();
  if (!facialRecognitionEnabled(machineLearning)) return 'unsupported';
  const found = await recognizePendingFaces(asset, machineLearning);
  await thumbnailsOfNewPeople(asset, found);
  return 'made';
};

const thumbnailsOfNewPeople = async (asset: AssetRecord, personIds: readonly string[]): Promise<void> => {
  for (const person of personIds.length === 0 ? [] : await getPeople(asset.ownerId, [...personIds]))
    if (!person.thumbnailPath) await makePersonThumbnail(asset.ownerId, person.id);
};

/** The original's size upright, from its EXIF (turned for orientations 5 to 8); else the preview's, which has its shape. */
const originalSize = (asset: AssetRecord, preview: { width: number; height: number }): { width: number; height: number } => {
  const { exifImageWidth: width, exifImageHeight: height, orientation } = asset.exif;
  if (!width || !height) return preview;
  const turned = Number(orientation ?? 1) >= 5;
  return turned ? { width: height, height: width } : { width, height };
};

/**
 * Immich's edit thumbnail job (after PUT or DELETE /assets/:id/edits): the asset's edited files for
 * its edits as they are now (shared/services/media/steps/edits.ts). An asset whose edits were
 * removed gets its unedited previews and thumbhash again, and its edited files go.
 */
export const generateEditedMedia = async (assetId: string): Promise<MediaOutcome> => {
  const asset = await getAsset(assetId);
  if (!asset) return 'gone';
  const store = await originalsStore();
  if (asset.edits.length === 0) {
    await removeEditedFiles(asset, store);
    const outcome = await processUpload(asset.id);
    editsReady(asset);
    return outcome;
  }
  return renderEdits(asset, store, (await readConfig()).thumbnail);
};

export type { MediaJob, MediaJobEvent } from '../../storage/media-jobs.ts';
