import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { log } from '../core/log.ts';
import { getAsset, getAssetWithFaces, recordEditedMedia, recordMedia } from '../db/asset.repository.ts';
import { getPeople, getPerson, setPersonThumbnail } from '../db/person.repository.ts';
import { editedKeys, previewKeys } from '../domain/media-files.ts';
import { isRaw } from '../domain/media-types.ts';
import { imageSize, renderEdited, renderFaceCrop, renderPreviews } from '../media/images.ts';
import { embeddedPreview } from '../media/raw.ts';
import { renderPoster } from '../media/video.ts';
import { type AssetRecord, type FaceRecord, peopleOfFaces } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import { raise } from '../realtime/outbox.ts';
import { type OriginalsStore, originalsStore, type StoredObject } from '../storage/originals.ts';
import { currentAssets, ownerDetails } from './asset-detail.ts';
import { readConfig } from './config.reader.ts';
import { facialRecognitionEnabled, findFaces, recognizePendingFaces } from './faces.service.ts';
import { placeAssetForJob } from './places.service.ts';

export type { MediaJobEvent } from '../storage/media-jobs.ts';

/** An original's key names its asset: `upload/<owner>/<ab>/<cd>/<assetId>.<ext>` (previews and sidecars are not originals). */
export const assetIdOfOriginalKey = (key: string): string | undefined =>
  /^upload\/[0-9a-f-]{36}\/[0-9a-f]{2}\/[0-9a-f-]{2}\/([0-9a-f-]{36})(\.[a-z0-9]+)?$/.exec(key)?.[1];

/** Whether an original is (still) stored: an object event for a file since removed has nothing to do. */
export const originalExists = async (key: string): Promise<boolean> => (await originalsStore()).exists(key);

export type MediaOutcome = 'made' | 'not-yet' | 'gone' | 'unsupported';

/**
 * Immich's thumbnail jobs for one asset: the JPEG preview, the WebP thumbnail and the thumbhash,
 * made from the original with the configured `thumbnail.*` settings, stored beside it and recorded
 * on the asset. Running it again makes the same files and records the same values. `not-yet`: the
 * asset is not recorded (its upload is still in progress, or failed); `gone`: deleted meanwhile.
 */
/**
 * Where ffmpeg reads a stored video: its own file (the local folder), else a copy streamed to a
 * temporary file (S3; the function's ephemeral storage is sized for the largest upload). Never
 * held in memory. Undefined when the object is gone.
 */
const withVideoFile = async <T>(store: OriginalsStore, key: string, use: (path: string) => Promise<T>): Promise<T | undefined> => {
  if (store.localPath) return (await store.exists(key)) ? use(store.localPath(key)) : undefined;
  const stream = await store.getStream(key);
  if (!stream) return undefined;
  const folder = await mkdtemp(join(tmpdir(), 'video-'));
  try {
    const path = join(folder, 'original');
    await pipeline(stream, createWriteStream(path));
    return await use(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
};

export const generateMedia = async (assetId: string, options: { notify?: boolean } = {}): Promise<MediaOutcome> => {
  const found = await getAssetWithFaces(assetId);
  if (!found) return 'not-yet';
  const { asset, faces } = found;
  if (asset.type !== 'IMAGE' && asset.type !== 'VIDEO') return 'unsupported';
  const { thumbnail: settings, reverseGeocoding, machineLearning } = await readConfig();
  // Immich's metadata job names the place of the asset's position (docs/places.md), whatever its previews.
  await placeAssetForJob(asset, reverseGeocoding.enabled);
  const store = await originalsStore();
  // A video's previews are those of its poster frame (ffmpeg, reading the file itself: a video of
  // gigabytes is never held in memory), a RAW file's those of the JPEG the camera embedded
  // (oriented as the RAW says), made like a photo's. Reading the store may fail (and be retried);
  // a file its decoder cannot read leaves the asset usable, unresized.
  let unreadable: unknown;
  const undecodable = (error: unknown): undefined => {
    unreadable = error;
    return undefined;
  };
  let previews: Awaited<ReturnType<typeof renderPreviews>> | undefined;
  if (asset.type === 'VIDEO') {
    const poster = await withVideoFile(store, asset.originalPath, (path) => renderPoster(path, settings.jpegSize).catch(undecodable));
    if (poster) previews = await renderPreviews(poster, settings).catch(undecodable);
    else if (!unreadable) return 'gone';
  } else {
    const original = await store.get(asset.originalPath);
    if (!original) return 'gone';
    if (isRaw(asset.originalFileName)) {
      const embedded = embeddedPreview(original);
      if (!embedded) undecodable(new Error('RAW file without an embedded preview'));
      else previews = await renderPreviews(embedded, settings, { orientation: Number(asset.exif.orientation ?? 1) }).catch(undecodable);
    } else previews = await renderPreviews(original, settings).catch(undecodable);
  }
  if (!previews) {
    log.warn('No previews for an asset its decoder cannot read', { assetId, error: String(unreadable) });
    return 'unsupported';
  }
  const keys = previewKeys(asset);
  const stored: StoredObject[] = [];
  stored.push(await store.put(keys.preview, previews.preview, 'image/jpeg'));
  stored.push(await store.put(keys.thumbnail, previews.thumbnail, 'image/webp'));
  const recorded = await recordMedia(asset.id, {
    resizePath: keys.preview,
    webpPath: keys.thumbnail,
    thumbhash: previews.thumbhash.toString('base64'),
  });
  if (!recorded) {
    await store.delete(stored);
    return 'gone';
  }
  // An edited asset shows its edits: its edited files and thumbhash are made again after these.
  if (asset.edits.length > 0) await generateEditedMedia(asset.id);
  const preview = { bytes: previews.preview, width: previews.previewWidth, height: previews.previewHeight };
  // The people whose feature face is on this asset (a new person's is the asset they were first seen on).
  const people = faces.length === 0 ? [] : await getPeople(asset.ownerId, peopleOfFaces(faces));
  await makePersonThumbnails(
    asset,
    faces,
    people.filter((person) => person.faceAssetId === asset.id),
    preview,
    settings.quality,
  );
  // Then Immich's face detection and recognition, once an asset (docs/faces.md); the faceDetection job runs them again.
  if (!asset.facesDetected)
    await detectFaces(asset, preview, { width: previews.width, height: previews.height }, machineLearning, { tolerant: true });
  // An upload's previews exist: its owner's apps are told, as Immich tells them once its thumbnail
  // job is done (never of a hidden or locked asset, nor of previews made again).
  if (options.notify && (asset.visibility === 'timeline' || asset.visibility === 'archive'))
    raise({ kind: 'asset-uploaded', ownerId: asset.ownerId, assetId: asset.id, load: ownerDetails });
  return 'made';
};

/**
 * Face detection and recognition of one asset (shared/services/faces.service.ts), then the
 * thumbnails of the people it made or gave their first face to (cropped from their best face's
 * preview, as Immich's person thumbnail job does).
 */
const detectFaces = async (
  asset: AssetRecord,
  preview: { bytes: Buffer; width: number; height: number },
  original: { width: number; height: number },
  machineLearning: Awaited<ReturnType<typeof readConfig>>['machineLearning'],
  options: { tolerant: boolean },
): Promise<void> => {
  // Faces never cost an upload its previews: a failure is logged, and the faceDetection job finds the faces later.
  const found = await findFaces(asset, preview, original, machineLearning).catch((error: unknown) => {
    if (!options.tolerant) throw error;
    log.error('Face detection failed', { assetId: asset.id, error: String(error) });
    return undefined;
  });
  if (found) log.info('faces', { assetId: asset.id, detected: found.detected, known: found.known, outcomes: found.outcomes });
  const ids = [...new Set(found?.people ?? [])];
  for (const person of ids.length === 0 ? [] : await getPeople(asset.ownerId, ids))
    if (!person.thumbnailPath) await makePersonThumbnail(asset.ownerId, person.id);
};

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
  const bytes = asset.resizePath ? await (await originalsStore()).get(asset.resizePath) : undefined;
  const size = bytes ? await imageSize(bytes) : undefined;
  if (!bytes || !size) return asset.facesDetected ? 'unsupported' : generateMedia(asset.id);
  await detectFaces(asset, { bytes, ...size }, originalSize(asset, size), machineLearning, { tolerant: false });
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
  for (const person of found.length === 0 ? [] : await getPeople(asset.ownerId, found))
    if (!person.thumbnailPath) await makePersonThumbnail(asset.ownerId, person.id);
  return 'made';
};

/** The original's size upright, from its EXIF (turned for orientations 5 to 8); else the preview's, which has its shape. */
const originalSize = (asset: AssetRecord, preview: { width: number; height: number }): { width: number; height: number } => {
  const { exifImageWidth: width, exifImageHeight: height, orientation } = asset.exif;
  if (!width || !height) return preview;
  const turned = Number(orientation ?? 1) >= 5;
  return turned ? { width: height, height: width } : { width, height };
};

/**
 * Immich's edit thumbnail job: the asset's edited full size, preview, thumbnail and thumbhash, made
 * from the original with its photo edits as they are now (shared/media/images.ts, renderEdited)
 * and recorded only while those are still its edits. An asset whose edits were removed gets its
 * unedited previews and thumbhash again, and its edited files go.
 */
export const generateEditedMedia = async (assetId: string): Promise<MediaOutcome> => {
  const asset = await getAsset(assetId);
  if (!asset) return 'gone';
  const store = await originalsStore();
  const keys = editedKeys(asset);
  if (asset.edits.length === 0) {
    await store.delete([{ key: keys.fullsize }, { key: keys.preview }, { key: keys.thumbnail }]);
    const outcome = await generateMedia(asset.id);
    editsReady(asset);
    return outcome;
  }
  if (asset.type !== 'IMAGE') return 'unsupported';
  const original = await store.get(asset.originalPath);
  if (!original) return 'gone';
  const { thumbnail: settings } = await readConfig();
  const source = isRaw(asset.originalFileName) ? embeddedPreview(original) : original;
  const edited = source
    ? await renderEdited(
        source,
        asset.edits,
        settings,
        isRaw(asset.originalFileName) ? { orientation: Number(asset.exif.orientation ?? 1) } : {},
      ).catch((error: unknown) => {
        log.warn('No edited image for an asset its decoder cannot read', { assetId, error: String(error) });
        return undefined;
      })
    : undefined;
  if (!edited) return 'unsupported';
  const stored = [
    await store.put(keys.fullsize, edited.fullsize, 'image/jpeg'),
    await store.put(keys.preview, edited.preview, 'image/jpeg'),
    await store.put(keys.thumbnail, edited.thumbnail, 'image/webp'),
  ];
  const recorded = await recordEditedMedia(asset.id, asset.edits, {
    editedFullsizePath: keys.fullsize,
    editedPreviewPath: keys.preview,
    editedThumbnailPath: keys.thumbnail,
    thumbhash: edited.thumbhash.toString('base64'),
  });
  // Edits changed meanwhile: their own job makes their files (the same keys), so these are left to it.
  if (!recorded && !(await getAsset(asset.id))) await store.delete(stored);
  if (recorded) editsReady(asset);
  return recorded ? 'made' : 'gone';
};

/**
 * Immich's edit thumbnail job is done: its owner's apps are told (`AssetEditReadyV2`), which both
 * of Immich's apps wait for after an edit, with the asset and its edits as they are now.
 */
const editsReady = (asset: AssetRecord): void =>
  raise({ kind: 'asset-edited', ownerId: asset.ownerId, assetId: asset.id, load: currentAssets });

/**
 * A person's thumbnail again, after their feature face changed (PUT /person/:id, handed on as a
 * job: shared/storage/media-jobs.ts): cropped from the preview of the asset now chosen, or, when
 * that asset has no preview yet, made with its previews.
 */
export const makePersonThumbnail = async (ownerId: string, personId: string): Promise<MediaOutcome> => {
  const person = await getPerson(ownerId, personId);
  if (!person?.faceAssetId) return 'gone';
  const found = await getAssetWithFaces(person.faceAssetId);
  if (!found) return 'gone';
  const { asset, faces } = found;
  const bytes = asset.resizePath ? await (await originalsStore()).get(asset.resizePath) : undefined;
  const size = bytes ? await imageSize(bytes) : undefined;
  if (!bytes || !size) return generateMedia(asset.id);
  const { thumbnail: settings } = await readConfig();
  const made = await makePersonThumbnails(asset, faces, [person], { bytes, ...size }, settings.quality);
  return made > 0 ? 'made' : 'unsupported';
};

/** `thumbs/<owner>/<ab>/<cd>/<personId>.jpeg`, as Immich keeps person thumbnails. */
export const personThumbnailKey = (ownerId: string, personId: string): string =>
  `thumbs/${ownerId}/${personId.slice(0, 2)}/${personId.slice(2, 4)}/${personId}.jpeg`;

/** Crops each person's thumbnail from the asset's preview, as Immich's person job does; how many were made. */
const makePersonThumbnails = async (
  asset: AssetRecord,
  faces: readonly FaceRecord[],
  people: readonly PersonRecord[],
  preview: { bytes: Buffer; width: number; height: number },
  quality: number,
): Promise<number> => {
  const store = await originalsStore();
  let made = 0;
  for (const person of people) {
    const face = faces.find((each) => each.personId === person.id);
    if (!face || face.imageWidth <= 0 || face.imageHeight <= 0) continue;
    // Face boxes are in the pixels of the image the region was written for; the preview is smaller.
    // Kept on the image first, as Immich's `getCrop` does: a face's box can spill over its edges.
    const sx = preview.width / face.imageWidth;
    const sy = preview.height / face.imageHeight;
    const onX = (value: number) => Math.min(Math.max(value, 0), face.imageWidth) * sx;
    const onY = (value: number) => Math.min(Math.max(value, 0), face.imageHeight) * sy;
    const box = { x1: onX(face.boundingBoxX1), y1: onY(face.boundingBoxY1), x2: onX(face.boundingBoxX2), y2: onY(face.boundingBoxY2) };
    try {
      const key = personThumbnailKey(asset.ownerId, person.id);
      await store.put(key, await renderFaceCrop(preview.bytes, box, quality), 'image/jpeg');
      await setPersonThumbnail(person, key);
      // As Immich's person thumbnail job tells the owner's apps when it is done.
      raise({ kind: 'person-thumbnail', ownerId: asset.ownerId, personId: person.id });
      made++;
    } catch (error) {
      log.warn('No thumbnail for a person', { personId: person.id, assetId: asset.id, error: String(error) });
    }
  }
  return made;
};
