/**
 * The face index (docs/faces.md, docs/data-model.md "Face index"): per owner, every detected
 * face's descriptor, in entries of one photo each, numbered 1, 2, 3… under `FACES#<ownerId>`. A
 * head item holds the last number; an entry is only ever added in one transaction with the head
 * moved on from the number read, so the entries have no gaps and a reader that has seen the head
 * can read every entry up to it, consistently. A process keeps the entries it has read (they never
 * change) and reads only newer ones: a photo's recognition reads two items, plus what is new.
 *
 * Who a face shows is not in the index: a face with a person has a face item (in its asset's
 * partition, as every face), one without has none yet. A decision (shared/services/media/faces.service.ts)
 * reads those items as they are now and its transaction conditions on them, so two jobs deciding
 * about the same faces at once cannot both win.
 */
import { randomUUID } from 'node:crypto';
import { type AssetRecord, type FaceRecord, inTimeline, peopleOfFaces } from '../model/asset.ts';
import type { PersonRecord } from '../model/person.ts';
import { batchGet } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { assetCodec, statusAsRead } from './items/asset.ts';
import { faceCodec } from './items/face.ts';
import * as faceWrites from './items/face-writes.ts';
import { personCodec } from './items/person.ts';
import * as personWrites from './items/person-writes.ts';
import { faceIndexSk } from './keys.ts';
import { done, doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryPages } from './query.ts';
import { isCancelled, putWrite, tryTransact, updateWrite, type Write, writeIfPresent } from './transact.ts';

/** A face as the index holds it: its box in the pixels of `imageWidth` × `imageHeight` (the original, oriented). */
export interface IndexedFace {
  id: string;
  assetId: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  score: number;
  imageWidth: number;
  imageHeight: number;
  /** Half floats (shared/domain/faces.ts). */
  descriptor: Float16Array;
}

interface OwnerIndex {
  seq: number;
  faces: IndexedFace[];
}

const cached = new Map<string, OwnerIndex>();

const entryFaces = (item: Record<string, unknown>, decode: (bytes: Uint8Array) => Float16Array[]): IndexedFace[] => {
  const vectors = decode(item.vectors as Uint8Array);
  return (item.faces as Omit<IndexedFace, 'assetId' | 'imageWidth' | 'imageHeight' | 'descriptor'>[]).flatMap((face, i) => {
    const descriptor = vectors[i];
    return descriptor
      ? [
          {
            ...face,
            x1: Number(face.x1),
            y1: Number(face.y1),
            x2: Number(face.x2),
            y2: Number(face.y2),
            score: Number(face.score),
            assetId: String(item.assetId),
            imageWidth: Number(item.imageWidth),
            imageHeight: Number(item.imageHeight),
            descriptor,
          },
        ]
      : [];
  });
};

/**
 * The owner's face index as it is now: the head read consistently, then the entries this process
 * has not read yet (Query of the numbers after its last, consistent). Entries never change, so
 * what was read before is kept for the process's life.
 */
export const read = async (ownerId: string, decode: (bytes: Uint8Array) => Float16Array[]): Promise<OwnerIndex> => {
  const head = await getItem(keys.faceIndexHead(ownerId));
  const seq = Number(head?.seq ?? 0);
  let index = cached.get(ownerId);
  // A head behind what was read: the table was made again (a test's); start over.
  if (!index || index.seq > seq) index = { seq: 0, faces: [] };
  if (seq > index.seq) {
    const faces = [...index.faces];
    for await (const page of queryPages(partitions.faceIndex(ownerId), { from: faceIndexSk(index.seq + 1), to: faceIndexSk(seq) }))
      for (const item of page) faces.push(...entryFaces(item, decode));
    index = { seq, faces };
  }
  cached.set(ownerId, index);
  return index;
};

/**
 * Adds one photo's detected faces to its owner's index (the next number, in one transaction with
 * the head), and marks the asset `facesDetected`; `gone` when the asset is gone. A photo without
 * faces is only marked. `unassigned`: the face items of the detected faces that have none yet
 * (without a person, listed with the asset's faces: docs/faces.md), written in the same
 * transaction with the asset's `faceIds`, on condition that its faces are still those read
 * (`asset`): else `faces-changed` (a face drawn, named or deleted, another detection: read them again).
 */
export const addEntry = async (
  asset: Pick<AssetRecord, 'id' | 'ownerId'>,
  image: { width: number; height: number },
  faces: readonly Omit<IndexedFace, 'assetId' | 'imageWidth' | 'imageHeight' | 'descriptor'>[],
  vectors: Uint8Array,
  unassigned?: { asset: AssetRecord; faces: readonly FaceRecord[] },
): Promise<Outcome<'gone' | 'faces-changed'>> => {
  // No face: nothing to index, only the mark (so the job's "missing" leaves it alone).
  if (faces.length === 0)
    return (await writeIfPresent(
      updateWrite(keys.asset(asset.id), 'SET facesDetected = :true', { condition: 'present', values: { ':true': true }, sync: 'unsent' }),
    ))
      ? done()
      : refused('gone');
  for (let attempt = 0; attempt < 50; attempt++) {
    const head = await getItem(keys.faceIndexHead(asset.ownerId));
    const seq = Number(head?.seq ?? 0);
    const next = seq + 1;
    try {
      return await tryTransact<'gone' | 'faces-changed'>([
        head
          ? updateWrite(keys.faceIndexHead(asset.ownerId), 'SET seq = :next', {
              condition: 'seq = :seq',
              values: { ':next': next, ':seq': seq },
            })
          : putWrite({ ...keys.faceIndexHead(asset.ownerId), type: 'faceIndexHead', seq: next }, { condition: 'absent' }),
        putWrite(
          {
            ...keys.faceIndexEntry(asset.ownerId, next),
            type: 'faceIndexEntry',
            assetId: asset.id,
            imageWidth: image.width,
            imageHeight: image.height,
            faces: faces.map(({ id, x1, y1, x2, y2, score }) => ({ id, x1, y1, x2, y2, score: Math.round(score * 1000) / 1000 })),
            vectors,
          },
          { condition: 'absent' },
        ),
        ...(unassigned && unassigned.faces.length > 0
          ? [
              // Neither list is in what the apps sync of an asset: no new change id for it.
              updateWrite(keys.asset(asset.id), 'SET facesDetected = :true, faceIds = :faces', {
                condition: listsAsRead(unassigned.asset).condition,
                values: {
                  ':true': true,
                  ':faces': [...unassigned.asset.faceIds, ...unassigned.faces.map((face) => face.id)],
                  ...listsAsRead(unassigned.asset).values,
                },
                sync: 'unsent',
                refusal: 'faces-changed',
              }),
              ...unassigned.faces.map((face) => faceWrites.create(face, unassigned.asset, { refusal: 'faces-changed' })),
            ]
          : [
              updateWrite(keys.asset(asset.id), 'SET facesDetected = :true', {
                condition: 'present',
                values: { ':true': true },
                sync: 'unsent',
                refusal: 'gone',
              }),
            ]),
      ]);
    } catch (error) {
      if (!isCancelled(error)) throw error;
      // Another photo took the number: read the head again, after a pause that spreads the retries.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1_000, 20 * 2 ** Math.min(attempt, 6))));
    }
  }
  throw new Error(`The face index of user ${asset.ownerId} kept changing`);
};

/**
 * A write's condition that the asset exists with the face list it was read with and, with
 * `people`, the people list too (a face of it named meanwhile changes that alone).
 */
const listsAsRead = (asset: AssetRecord, people = false): { condition: string; values: Record<string, unknown> } => {
  const parts = ['attribute_exists(pk)'];
  const values: Record<string, unknown> = {};
  for (const [attribute, list] of [['faceIds', asset.faceIds], ...(people ? [['personIds', asset.personIds] as const] : [])] as const) {
    if (list.length === 0) {
      parts.push(`(attribute_not_exists(${attribute}) OR size(${attribute}) = :zero)`);
      values[':zero'] = 0;
    } else {
      parts.push(`${attribute} = :${attribute}Before`);
      values[`:${attribute}Before`] = list;
    }
  }
  return { condition: parts.join(' AND '), values };
};

/** What a decision reads of the faces it looks at, as they are now (consistent reads). */
export interface FaceStates {
  /** Face id → its face item (with a person, or without one yet; a face of the index without an item was detected before items were kept for every face). */
  faces: Map<string, FaceRecord>;
  assets: Map<string, AssetRecord>;
  people: Map<string, PersonRecord>;
}

export const readFaceStates = async (ownerId: string, faces: readonly Pick<IndexedFace, 'id' | 'assetId'>[]): Promise<FaceStates> => {
  const assetIds = [...new Set(faces.map((face) => face.assetId))];
  const [faceItems, assetItems] = await Promise.all([
    batchGet(
      faces.map((face) => keys.assetFace(face.assetId, face.id)),
      { consistent: true },
    ),
    batchGet(
      assetIds.map((id) => keys.asset(id)),
      { consistent: true },
    ),
  ]);
  const found = faceItems.map(faceCodec.read);
  const personIds = peopleOfFaces(found);
  const people = (
    await batchGet(
      personIds.map((id) => keys.person(ownerId, id)),
      { consistent: true },
    )
  ).map(personCodec.read);
  return {
    faces: new Map(found.map((face) => [face.id, face])),
    assets: new Map(assetItems.map(assetCodec.read).map((asset) => [asset.id, asset])),
    people: new Map(people.map((person) => [person.id, person])),
  };
};

/** A decision to record: faces (without a person until now) that now show a person, new or known. */
export interface Recognition {
  ownerId: string;
  /** A new person (no name), who shows these faces; or undefined: `personId` is known. */
  newPerson?: { faceAssetId: string } | undefined;
  personId?: string | undefined;
  /**
   * The faces, each with its asset as read (its faces then, on which the write conditions) and its
   * face item as read, without a person (undefined: a face detected before every detected face had
   * an item, given one now at `index`).
   */
  faces: readonly { face: IndexedFace; asset: AssetRecord; index: number; item?: FaceRecord | undefined }[];
}

/**
 * Records a decision in one transaction: each face's item given the person (`attribute_not_exists(personId)`:
 * a face another decision gave a person meanwhile cancels it; an item made for a face that had none,
 * `attribute_not_exists`), each asset's `personIds` and `faceIds` (conditioned on both as read),
 * the person created or their face count moved on (`attribute_exists`). The person's id, or
 * `changed` when something changed meanwhile (decide again).
 */
export const recordRecognition = async (recognition: Recognition): Promise<Outcome<'changed', string>> => {
  const now = new Date().toISOString();
  const personId = recognition.personId ?? randomUUID();
  const writes: Write<'person-gone'>[] = [];
  const byAsset = new Map<string, { asset: AssetRecord; made: string[] }>();
  for (const { face, asset, index, item } of recognition.faces) {
    const entry = byAsset.get(asset.id) ?? { asset, made: [] };
    byAsset.set(asset.id, entry);
    if (item) {
      writes.push(faceWrites.reassign({ id: face.id, assetId: asset.id, fileCreatedAt: asset.fileCreatedAt }, personId, null));
      continue;
    }
    const record: FaceRecord = {
      id: face.id,
      assetId: asset.id,
      personId,
      ownerId: recognition.ownerId,
      imageWidth: face.imageWidth,
      imageHeight: face.imageHeight,
      boundingBoxX1: face.x1,
      boundingBoxY1: face.y1,
      boundingBoxX2: face.x2,
      boundingBoxY2: face.y2,
      index,
      sourceType: 'machine-learning',
    };
    writes.push(faceWrites.create(record, asset));
    entry.made.push(record.id);
  }
  for (const { asset, made } of byAsset.values()) {
    const people = [...new Set([...asset.personIds, personId])];
    const asRead = listsAsRead(asset, true);
    // And its status as read: the person's count of faces in the timeline goes by it (docs/data-model.md, "People").
    const status = statusAsRead(asset);
    writes.push(
      updateWrite(keys.asset(asset.id), 'SET personIds = :people, faceIds = :faces', {
        condition: `${asRead.condition} AND ${status.expression}`,
        names: status.names,
        values: { ':people': people, ':faces': [...asset.faceIds, ...made], ...asRead.values, ...status.values },
        sync: 'unsent',
      }),
    );
  }
  const timeline = recognition.faces.filter(({ asset }) => inTimeline(asset)).length;
  if (recognition.newPerson)
    writes.push(
      personWrites.create({
        id: personId,
        ownerId: recognition.ownerId,
        name: '',
        birthDate: null,
        isHidden: false,
        thumbnailPath: '',
        faceAssetId: recognition.newPerson.faceAssetId,
        faceCount: recognition.faces.length,
        timelineFaceCount: timeline,
        isFavorite: false,
        color: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
  else writes.push(personWrites.addFacesWhilePresent(recognition.ownerId, personId, recognition.faces.length, { timeline }));
  try {
    return (await tryTransact(writes)).ok ? doneWith(personId) : refused('changed');
  } catch (error) {
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
};
