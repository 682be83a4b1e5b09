import { randomUUID } from 'node:crypto';
import * as assetRepo from '../../db/asset.repository.ts';
import type { IndexedFace } from '../../db/face-index.repository.ts';
import * as faceIndexRepo from '../../db/face-index.repository.ts';
import * as personRepo from '../../db/person.repository.ts';
import * as termRepo from '../../db/term.repository.ts';
import {
  type Box,
  decide,
  decodeDescriptors,
  encodeDescriptors,
  type Neighbour,
  nearestFaces,
  overlap,
  sameFaceOverlap,
  scaleBox,
} from '../../domain/faces.ts';
import { assetTerms } from '../../domain/terms.ts';
import type { DetectedFace } from '../../media/face-detect.ts';
import { decodeRgb } from '../../media/images.ts';
import type { AssetRecord, AssetWithFaces, FaceRecord } from '../../model/asset.ts';
import type { SystemConfig } from '../../model/config.ts';

/**
 * Faces from the photos themselves (docs/faces.md): Immich's face detection and facial
 * recognition jobs, run by the media function after a photo's preview is made. Detection looks
 * at the preview (as Immich does), keeps each face's box in the original's pixels and its
 * descriptor in the owner's face index; recognition then decides, face by face, who each new face
 * shows (shared/domain/faces.ts), and records it in one transaction that conditions on what it read.
 */

type MachineLearning = SystemConfig['machineLearning'];

/** Immich's `isFacialRecognitionEnabled`: machine learning on, and facial recognition on. */
export const facialRecognitionEnabled = (ml: MachineLearning): boolean => ml.enabled && ml.facialRecognition.enabled;

/**
 * Faces are not looked for in an image whose shorter side is smaller (docs/faces.md): a face in it
 * would be under about 40 pixels, too little for a descriptor that matches reliably (the
 * recognition net reads a face at 150 × 150), and the detector costs the same 0.27 s whatever the
 * image's size (it reads every image at 512 × 512).
 */
const minFaceImageSide = 96;

/** What recognition did with one face. */
export type FaceOutcome = 'joined' | 'new' | 'wait' | 'assigned' | 'gone';

export interface FacesFound {
  /** Faces detected, and of them those already settled: a face with a person (a file's region, a drawn one, one recognised before) or one deleted. */
  detected: number;
  known: number;
  /** The people new faces joined or founded: their feature photo may need making (the media function does). */
  people: string[];
  outcomes: FaceOutcome[];
}

const faceBox = (face: FaceRecord): Box => ({
  x1: face.boundingBoxX1,
  y1: face.boundingBoxY1,
  x2: face.boundingBoxX2,
  y2: face.boundingBoxY2,
});

/**
 * Face detection for one asset, from its preview (`preview`, upright, and `original`, the
 * original's size upright): each face found is either one the asset already has (a file's region
 * or a drawn face over the same face: the same id, so its person attracts look-alikes) or a new
 * one; all go into the face index in one entry, each new one gets its face item without a person
 * (listed with the asset's faces, so its owner can name it: docs/faces.md), and each face without
 * a person is then recognised. A photo with no face is only marked (no read of the asset or the
 * index). Undefined when facial recognition is off or the asset is gone.
 */
export const findFaces = async (
  asset: Pick<AssetRecord, 'id' | 'ownerId'>,
  preview: { bytes: Uint8Array; width: number; height: number },
  original: { width: number; height: number },
  ml: MachineLearning,
): Promise<FacesFound | undefined> => {
  if (!facialRecognitionEnabled(ml)) return undefined;
  const { detectFaces } = await import('../../media/face-detect.ts');
  const detected =
    Math.min(preview.width, preview.height) < minFaceImageSide
      ? []
      : await detectFaces(await decodeRgb(preview.bytes), ml.facialRecognition.minScore);
  if (detected.length === 0)
    return (await faceIndexRepo.addEntry(asset, original, [], new Uint8Array())).ok
      ? { detected: 0, known: 0, people: [], outcomes: [] }
      : undefined;
  for (let attempt = 0; ; attempt++) {
    const current = await assetRepo.getWithFaces(asset.id);
    if (!current) return undefined;
    const faces = matchFaces(current, detected, preview, original, await faceIndexRepo.read(current.asset.ownerId, decodeDescriptors));
    const added = await faceIndexRepo.addEntry(current.asset, original, faces, encodeDescriptors(faces.map((face) => face.descriptor)), {
      asset: current.asset,
      faces: faces.flatMap((face) => (face.item ? [face.item] : [])),
    });
    if (!added.ok) {
      if (added.reason === 'gone') return undefined;
      // Its faces changed since they were read (one drawn, named or deleted meanwhile): match them again.
      if (attempt < 8) continue;
      throw new Error(`The faces of asset ${asset.id} kept changing while they were recognised`);
    }
    return recognizeFound(current.asset.ownerId, faces, ml);
  }
};

/**
 * The detected faces matched with the asset's faces as they are now: a face found again keeps its
 * id; one with a person, or deleted by its owner, is settled (not recognised again); one without
 * an item (new, or detected before every detected face had one) gets its item, without a person.
 */
const matchFaces = (
  current: AssetWithFaces,
  detected: readonly DetectedFace[],
  preview: { width: number; height: number },
  original: { width: number; height: number },
  index: { faces: readonly IndexedFace[] },
) => {
  const dropped = new Set(current.asset.droppedFaces ?? []);
  // The faces it has (a file's regions, drawn ones, detected ones), then those detected before
  // without an item or deleted since (the index's).
  const before = [
    ...current.faces.map((face) => ({
      id: face.id,
      box: faceBox(face),
      size: { width: face.imageWidth, height: face.imageHeight },
      person: face.personId !== null,
      item: true,
    })),
    ...index.faces
      .filter((face) => face.assetId === current.asset.id && !current.faces.some((each) => each.id === face.id))
      .map((face) => ({ id: face.id, box: face, size: { width: face.imageWidth, height: face.imageHeight }, person: false, item: false })),
  ];
  const used = new Set<string>();
  let next = Math.max(-1, ...current.faces.map((face) => face.index)) + 1;
  return detected.map((found) => {
    const box = scaleBox(found, preview, original);
    const same = before.find(
      (face) =>
        !used.has(face.id) &&
        face.size.width > 0 &&
        face.size.height > 0 &&
        overlap(scaleBox(face.box, face.size, original), box) >= sameFaceOverlap,
    );
    if (same) used.add(same.id);
    const id = same?.id ?? randomUUID();
    const known = same !== undefined && (same.person || dropped.has(same.id));
    const item: FaceRecord | undefined =
      same?.item || dropped.has(id)
        ? undefined
        : {
            id,
            assetId: current.asset.id,
            personId: null,
            ownerId: current.asset.ownerId,
            imageWidth: original.width,
            imageHeight: original.height,
            boundingBoxX1: box.x1,
            boundingBoxY1: box.y1,
            boundingBoxX2: box.x2,
            boundingBoxY2: box.y2,
            // After the asset's faces, in the order found (the most certain first).
            index: next++,
            sourceType: 'machine-learning',
          };
    return { id, ...box, score: found.score, descriptor: found.descriptor, known, item };
  });
};

/** Recognition of the faces detection found that have no person yet, one by one. */
const recognizeFound = async (
  ownerId: string,
  faces: readonly { id: string; known: boolean }[],
  ml: MachineLearning,
): Promise<FacesFound> => {
  const result: FacesFound = { detected: faces.length, known: faces.filter((face) => face.known).length, people: [], outcomes: [] };
  for (const face of faces.filter((each) => !each.known)) {
    const outcome = await recognizeFace(ownerId, face.id, ml);
    result.outcomes.push(outcome.kind);
    if (outcome.personId) result.people.push(outcome.personId);
  }
  return result;
};

/** The asset's faces in the face index that have no person yet (nor were deleted) recognised again; the people they now show. */
export const recognizePendingFaces = async (asset: AssetRecord, ml: MachineLearning): Promise<string[]> => {
  const current = await assetRepo.getWithFaces(asset.id);
  if (!current) return [];
  const settled = new Set([
    ...current.faces.filter((face) => face.personId !== null).map((face) => face.id),
    ...(current.asset.droppedFaces ?? []),
  ]);
  const pending = new Set(
    (await faceIndexRepo.read(asset.ownerId, decodeDescriptors)).faces
      .filter((face) => face.assetId === asset.id && !settled.has(face.id))
      .map((face) => face.id),
  );
  const people: string[] = [];
  for (const faceId of pending) {
    const outcome = await recognizeFace(asset.ownerId, faceId, ml);
    if (outcome.personId) people.push(outcome.personId);
  }
  return [...new Set(people)];
};

/** The face in the owner's index with this id (its latest entry: detection run again adds it again). */
const indexedFace = (faces: readonly IndexedFace[], faceId: string): IndexedFace | undefined =>
  faces.findLast((face) => face.id === faceId);

/** At most this many faces without a person join a new person with the face that founds it (one transaction). */
const maxFoundingFaces = 30;

/**
 * Immich's facial recognition of one face without a person: its neighbours within `maxDistance`
 * in the owner's face index, as they are now (who they show, whether their photo is still there),
 * then the decision, recorded; read and decided again when something changed meanwhile.
 */
export const recognizeFace = async (
  ownerId: string,
  faceId: string,
  ml: MachineLearning,
): Promise<{ kind: FaceOutcome; personId?: string | undefined }> => {
  const { maxDistance, minFaces } = ml.facialRecognition;
  for (let attempt = 0; attempt < 8; attempt++) {
    const index = await faceIndexRepo.read(ownerId, decodeDescriptors);
    const self = indexedFace(index.faces, faceId);
    if (!self) return { kind: 'gone' };
    const near = nearestFaces(self, index.faces, maxDistance);
    const states = await faceIndexRepo.readFaceStates(ownerId, [self, ...near.map((each) => each.face)]);
    const own = states.faces.get(self.id);
    if (own?.personId) return { kind: 'assigned', personId: own.personId };
    const asset = states.assets.get(self.assetId);
    if (!asset || (asset.droppedFaces ?? []).includes(self.id) || asset.deletedAt) return { kind: 'gone' };
    const takenOn = asset.fileCreatedAt.slice(0, 10);
    const pending = new Map<string, IndexedFace>();
    const neighbours = near.flatMap(({ face, distance }): Neighbour[] => {
      const of = states.assets.get(face.assetId);
      if (!of || of.deletedAt || (of.droppedFaces ?? []).includes(face.id)) return [];
      const item = states.faces.get(face.id);
      if (!item?.personId) {
        pending.set(face.id, face);
        return [{ faceId: face.id, distance }];
      }
      // Immich leaves out the people born after the photo was taken.
      const person = states.people.get(item.personId);
      if (person?.birthDate && person.birthDate > takenOn) return [];
      return [{ faceId: face.id, distance, personId: item.personId }];
    });
    const decision = decide(neighbours, { maxDistance, minFaces }, { inTimeline: asset.visibility === 'timeline' });
    if (decision.kind === 'wait') return { kind: 'wait' };
    const founding =
      decision.kind === 'new' ? [self, ...decision.faceIds.flatMap((id) => pending.get(id) ?? []).slice(0, maxFoundingFaces - 1)] : [self];
    const faces = founding.flatMap((face) => {
      const of = states.assets.get(face.assetId);
      return of ? [{ face, asset: of, item: states.faces.get(face.id) }] : [];
    });
    // A face detected before every detected face had an item gets one, after the asset's faces.
    const indexed = faces.map((each, i) => ({
      ...each,
      index:
        each.item?.index ??
        each.asset.faceIds.length + faces.slice(0, i).filter((other) => !other.item && other.asset.id === each.asset.id).length,
    }));
    const person = decision.kind === 'join' ? states.people.get(decision.personId) : undefined;
    if (person?.name) await writeNamePostings(ownerId, asset, person.name);
    const best = founding.reduce((a, b) => (b.score > a.score ? b : a));
    const recorded = await faceIndexRepo.recordRecognition({
      ownerId,
      ...(decision.kind === 'new' ? { newPerson: { faceAssetId: best.assetId } } : { personId: decision.personId }),
      faces: indexed,
    });
    // Something changed meanwhile: decide again.
    if (!recorded.ok) continue;
    const personId = recorded.value;
    // A known person with no feature photo (their faces all went) takes this one.
    if (person && person.faceAssetId === null) await personRepo.update(person, { faceAssetId: asset.id });
    return { kind: decision.kind === 'new' ? 'new' : 'joined', personId };
  }
  return { kind: 'wait' };
};

/** The asset becomes findable by the name of the person a face of it now shows (as a face edit makes it: shared/services/person/face-edit.service.ts). */
const writeNamePostings = async (ownerId: string, asset: AssetRecord, name: string): Promise<void> => {
  const names = (await personRepo.getMany(ownerId, asset.personIds)).map((each) => each.name);
  const before = new Set(assetTerms(asset, names));
  await termRepo.writePostings(
    ownerId,
    termRepo.postingsOf(
      asset,
      assetTerms(asset, [...names, name]).filter((term) => !before.has(term)),
    ),
  );
};
