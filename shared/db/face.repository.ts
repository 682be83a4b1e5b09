import { inBatches } from '../core/concurrency.ts';
import { type AssetRecord, type FaceRecord, inTimeline, peopleOfFaces } from '../model/asset.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import { statusAsRead } from './items/asset.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { faceCodec, showsCondition } from './items/face.ts';
import * as faceWrites from './items/face-writes.ts';
import * as personWrites from './items/person-writes.ts';
import { doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import { checkWrite, deleteWrite, isCancelled, transact, tryTransact, updateWrite, type Write, writeIfPresent } from './transact.ts';

/** A face by its id (Query gsi1 `FACE#<id>`), or undefined. */
export const find = async (faceId: string): Promise<FaceRecord | undefined> => {
  const [item] = await queryAll(partitions.face(faceId));
  return item ? faceCodec.read(item) : undefined;
};

/**
 * Gives an owner's faces stored before faces were findable by id their gsi1 key, once
 * (docs/data-model.md, "Earlier shapes"): the owner's timeline (ids and face ids only), each
 * face without the key stamped conditionally (a run cut short is run again), then the user
 * marked `facesIndexed`. New users are marked from the start.
 */
export const indexFaces = async (ownerId: string): Promise<void> => {
  const user = await getItem(keys.user(ownerId));
  if (!user || user.facesIndexed === true) return;
  for await (const page of queryPages(partitions.timeline(ownerId), { attributes: ['id', 'faceIds'] })) {
    const faces = page.flatMap((item) =>
      ((item.faceIds as string[] | undefined) ?? []).map((faceId) => ({ faceId, assetId: String(item.id) })),
    );
    await inBatches(faces, 16, async ({ faceId, assetId }) => {
      const { gsi1pk, gsi1sk } = indexKeys.face(faceId, assetId);
      await writeIfPresent(
        updateWrite(keys.assetFace(assetId, faceId), 'SET gsi1pk = :pk, gsi1sk = :sk', {
          condition: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk)',
          values: { ':pk': gsi1pk, ':sk': gsi1sk },
          sync: 'unsent',
        }),
      );
    });
  }
  await writeIfPresent(
    updateWrite(keys.user(ownerId), 'SET facesIndexed = :true', { condition: 'present', values: { ':true': true }, sync: 'unsent' }),
  );
};

/** What an edit does to one asset's faces. */
export interface FaceEdit {
  /** Face id → the person it now shows. */
  moves?: ReadonlyMap<string, string>;
  add?: FaceRecord;
  remove?: string;
}

/** An asset's faces as an edit leaves them: the removed one gone, the moved ones on their new person, the added one last. */
export const facesAfter = (faces: readonly FaceRecord[], edit: FaceEdit): FaceRecord[] => {
  const moves = edit.moves ?? new Map<string, string>();
  return faces
    .filter((face) => face.id !== edit.remove)
    .map((face) => ({ ...face, personId: moves.get(face.id) ?? face.personId }))
    .concat(edit.add ? [edit.add] : []);
};

/** DynamoDB's most writes in one transaction. */
const maxWrites = 100;
/**
 * Faces one transaction moves at most: each move is a write, and each person it takes a face
 * from a count's, so 45 moves stay under `maxWrites` with the asset's and the receiver's.
 */
const maxMoves = 45;

/**
 * Changes one asset's faces in one transaction: faces moved to another person, one added or one
 * removed (with its deletion record for the apps), the asset's `personIds` and `faceIds`, and
 * every person's face count. Every other face of the asset is checked unchanged, so two edits of
 * one asset's faces cannot leave its people wrong: `changed` when one got there first (read
 * again), `person-gone` when a person the edit gives faces to was deleted meanwhile.
 *
 * An asset with more faces than a transaction holds (DynamoDB's 100 writes; a crowd's photo, or
 * faces drawn by hand, of which Immich sets no number) is edited as well: the faces the edit
 * writes, the counts and the asset's lists are one transaction still, conditioned on the asset's
 * faces being those read (`faceIds`), with as many of the other faces checked as it has room for
 * (those of the people the edit touches, and those of no one, first); once it is done, the asset's
 * people are read again from its faces and written again if another edit of a face left
 * unchecked changed them meanwhile (`settlePeople`). More moves than `maxMoves` are made by one
 * transaction each `maxMoves` (value `more`: the caller reads the faces again and goes on), each
 * leaving the asset whole. Refused `changed` when the asset or its faces changed meanwhile (read
 * them again), `person-gone` when a person gaining faces is gone.
 */
export const editAssetFaces = async (
  asset: AssetRecord,
  faces: readonly FaceRecord[],
  whole: FaceEdit,
): Promise<Outcome<'changed' | 'person-gone', 'done' | 'more'>> => {
  const more = (whole.moves?.size ?? 0) > maxMoves;
  const edit: FaceEdit = more ? { ...whole, moves: new Map([...(whole.moves ?? [])].slice(0, maxMoves)) } : whole;
  const moves = edit.moves ?? new Map<string, string>();
  const after = facesAfter(faces, edit);
  const deltas = new Map<string, number>();
  const add = (personId: string | null, n: number) => {
    if (personId !== null) deltas.set(personId, (deltas.get(personId) ?? 0) + n);
  };
  const writes: Write<'person-gone'>[] = [];
  const untouched: FaceRecord[] = [];
  for (const face of faces) {
    // Each face still shows whom it showed (a face without a person: still no one).
    const unchanged = showsCondition(face.personId);
    const to = moves.get(face.id);
    if (face.id === edit.remove) {
      writes.push(
        deleteWrite(keys.assetFace(asset.id, face.id), { ...unchanged, sync: 'recorded' }),
        deletionWrites.face(asset.ownerId, face.id),
      );
      add(face.personId, -1);
    } else if (to !== undefined && to !== face.personId) {
      writes.push(faceWrites.reassign({ ...face, fileCreatedAt: asset.fileCreatedAt }, to, face.personId));
      add(face.personId, -1);
      add(to, 1);
    } else untouched.push(face);
  }
  if (edit.add) {
    writes.push(faceWrites.create(edit.add, asset));
    add(edit.add.personId, 1);
  }
  const counts = [...deltas].filter(([, n]) => n !== 0);
  const room = maxWrites - writes.length - 1 - counts.length;
  // The faces whose person decides the asset's people after this edit first: those of a person it touches, or of no one.
  const touched = new Set(deltas.keys());
  const checked =
    untouched.length <= room
      ? untouched
      : [...untouched]
          .sort((a, b) => Number(b.personId === null || touched.has(b.personId)) - Number(a.personId === null || touched.has(a.personId)))
          .slice(0, Math.max(0, room));
  const settle = checked.length < untouched.length;
  for (const face of checked) writes.push(checkWrite(keys.assetFace(asset.id, face.id), showsCondition(face.personId)));
  const lists = { ':people': peopleOfFaces(after), ':faces': after.map((face) => face.id) };
  // The people's counts of faces in the timeline move by the asset's status as read, on which the write conditions.
  const asRead = statusAsRead(asset);
  const timeline = inTimeline(asset) ? 1 : 0;
  // Not every face checked: the asset's faces must also be those read (none added or deleted meanwhile).
  const sameFaces = settle
    ? {
        condition: `${asRead.expression} AND (faceIds = :before OR attribute_not_exists(faceIds))`,
        values: { ...asRead.values, ':before': asset.faceIds },
      }
    : { condition: asRead.expression, values: asRead.values };
  // Any face deleted: a file's region the detector also found is in the face index under its id.
  const droppedDetected = faces.some((face) => face.id === edit.remove);
  writes.push(
    // Neither list is in what the apps sync of an asset: no new change id for it.
    // A detected face deleted stays deleted: recognition never gives it a person again (docs/faces.md).
    droppedDetected
      ? updateWrite(
          keys.asset(asset.id),
          'SET personIds = :people, faceIds = :faces, droppedFaces = list_append(if_not_exists(droppedFaces, :none), :dropped)',
          {
            condition: sameFaces.condition,
            names: asRead.names,
            values: { ...lists, ':none': [], ':dropped': [edit.remove], ...sameFaces.values },
            sync: 'unsent',
          },
        )
      : updateWrite(keys.asset(asset.id), 'SET personIds = :people, faceIds = :faces', {
          condition: sameFaces.condition,
          names: asRead.names,
          values: { ...lists, ...sameFaces.values },
          sync: 'unsent',
        }),
    ...counts.map(([personId, n]) =>
      n > 0
        ? personWrites.addFacesWhilePresent(asset.ownerId, personId, n, { timeline: n * timeline })
        : personWrites.addFaces(asset.ownerId, personId, n, { timeline: n * timeline }),
    ),
  );
  try {
    if (!(await tryTransact(writes)).ok) return refused('person-gone');
  } catch (error) {
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
  if (settle) await settlePeople(asset.id);
  return doneWith(more ? 'more' : 'done');
};

/**
 * The asset's people as its faces say now (a consistent Query of its partition), written again
 * when they differ from its `personIds`, on the condition that neither list changed since it was
 * read (three rounds at most: another edit settles its own).
 */
const settlePeople = async (assetId: string): Promise<void> => {
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
  for (let round = 0; round < 3; round++) {
    const items = await queryAll(partitions.asset(assetId));
    const asset = items.find((item) => item.type === 'asset');
    if (!asset) return;
    const faces = items
      .filter((item) => item.type === 'face')
      .map(faceCodec.read)
      .sort((a, b) => a.index - b.index);
    const people = peopleOfFaces(faces);
    const storedPeople = (asset.personIds as string[] | undefined) ?? [];
    const storedFaces = asset.faceIds as string[] | undefined;
    if (sameSet(people, storedPeople)) return;
    // A write of the faces half seen by the Query: read again.
    if (
      !sameSet(
        storedFaces ?? [],
        faces.map((face) => face.id),
      )
    )
      continue;
    try {
      await transact([
        updateWrite(keys.asset(assetId), 'SET personIds = :people', {
          condition: `personIds = :was AND ${storedFaces ? 'faceIds = :faces' : 'attribute_not_exists(faceIds)'}`,
          values: { ':people': people, ':was': storedPeople, ...(storedFaces ? { ':faces': storedFaces } : {}) },
          sync: 'unsent',
        }),
      ]);
      return;
    } catch (error) {
      if (!isCancelled(error)) throw error;
    }
  }
};
