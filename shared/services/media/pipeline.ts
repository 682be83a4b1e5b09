/**
 * One upload's processing, a named linear sequence of steps (docs/media.md): each step a module of
 * steps/ with an idempotent `run` and a `skip(settings)`, run in this order; a step's outcome
 * ('gone', 'unsupported') ends the run. A new step is one module and one row here. The media
 * function's jobs run named steps the same way (`runJobSteps`; their lists in jobs.ts).
 */
import * as assetRepo from '../../db/asset.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import type { AssetRecord, FaceRecord } from '../../model/asset.ts';
import type { PersonRecord } from '../../model/person.ts';
import { raise } from '../../realtime/outbox.ts';
import { originalsStore } from '../../storage/originals.ts';
import { queueTranscodeJobs } from '../../storage/transcode-jobs.ts';
import { ownerDetails } from '../asset-detail.ts';
import { readConfig } from '../config.reader.ts';
import type { MediaOutcome, MediaStep, UploadContext } from './step.ts';
import { clipStep } from './steps/clip.ts';
import { duplicatesStep } from './steps/duplicates.ts';
import { editsStep } from './steps/edits.ts';
import { ensurePreviewStep } from './steps/ensure-preview.ts';
import { facesStep } from './steps/faces.ts';
import { ocrStep } from './steps/ocr.ts';
import { personThumbnailStep, personThumbnailsStep } from './steps/person-thumbnails.ts';
import { placesStep } from './steps/places.ts';
import { previewsStep } from './steps/previews.ts';

/** The steps of an upload, in their order. */
export const uploadSteps: readonly MediaStep[] = [
  placesStep,
  previewsStep,
  editsStep,
  personThumbnailsStep,
  facesStep,
  clipStep,
  ocrStep,
  duplicatesStep,
];

/** A run's context for the asset as read: the settings and the store read once for its steps. */
const contextOf = async (asset: AssetRecord, faces: readonly FaceRecord[]): Promise<UploadContext> => ({
  asset,
  faces,
  settings: await readConfig(),
  store: await originalsStore(),
  personThumbnail: makePersonThumbnail,
  upload: () => processUpload(asset.id),
});

/** The steps in their order, each unless its `skip` says so; the first outcome a step returns ends the run. */
const runSteps = async (context: UploadContext, steps: readonly MediaStep[]): Promise<MediaOutcome | undefined> => {
  for (const step of steps) {
    if (step.skip?.(context.settings, context)) continue;
    const outcome = await step.run(context);
    if (outcome) return outcome;
  }
  return undefined;
};

/**
 * Immich's jobs for one uploaded asset, run again by the jobs that need its previews: `not-yet`:
 * the asset is not recorded (its upload is still in progress, or failed); `gone`: deleted
 * meanwhile; `unsupported`: no previews can be made of it. Running it again makes the same files
 * and records the same values.
 */
export const processUpload = async (assetId: string, options: { notify?: boolean } = {}): Promise<MediaOutcome> => {
  const found = await assetRepo.getWithFaces(assetId);
  if (!found) return 'not-yet';
  const { asset, faces } = found;
  if (asset.type !== 'IMAGE' && asset.type !== 'VIDEO') return 'unsupported';
  const outcome = await runSteps(await contextOf(asset, faces), uploadSteps);
  if (outcome) return outcome;
  // An upload's previews exist: its owner's apps are told, as Immich tells them once its thumbnail
  // job is done (never of a hidden or locked asset, nor of previews made again).
  if (options.notify && (asset.visibility === 'timeline' || asset.visibility === 'archive'))
    raise({ kind: 'asset-uploaded', ownerId: asset.ownerId, assetId: asset.id, load: ownerDetails });
  // An uploaded video (a motion photo's hidden one too) with its poster goes to the transcode
  // function, as Immich queues its encode once an upload's thumbnails are made (docs/media.md, "Transcoding").
  if (options.notify && asset.type === 'VIDEO') await queueTranscodeJobs([{ kind: 'transcode', assetId: asset.id, force: true }]);
  return 'made';
};

/**
 * A job's run (docs/media.md, "Jobs"): its named steps on the asset as it is now (with its faces
 * when they need them); `gone` when the asset is not there, `made` when no step ended the run.
 */
export const runJobSteps = async (
  assetId: string,
  steps: readonly MediaStep[],
  options: { faces?: boolean } = {},
): Promise<MediaOutcome> => {
  const found = options.faces
    ? await assetRepo.getWithFaces(assetId)
    : await assetRepo.get(assetId).then((asset) => asset && { asset, faces: [] });
  if (!found) return 'gone';
  return (await runSteps(await contextOf(found.asset, found.faces), steps)) ?? 'made';
};

/**
 * A person's thumbnail again, after their feature face changed (PUT /person/:id, handed on as a
 * job: shared/storage/media-jobs.ts), or when face detection made them: cropped from the preview
 * of the asset now chosen, made first with its upload's steps when it has none (ensure-preview).
 */
export const makePersonThumbnail = async (ownerId: string, personId: string): Promise<MediaOutcome> => {
  const person = await personRepo.get(ownerId, personId);
  if (!person?.faceAssetId) return 'gone';
  return runJobSteps(person.faceAssetId, personThumbnailSteps(person), { faces: true });
};

/** The person thumbnail job's steps, on the asset of the person's feature face. */
export const personThumbnailSteps = (person: PersonRecord): readonly MediaStep[] => [ensurePreviewStep(), personThumbnailStep(person)];
