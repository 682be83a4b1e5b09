import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type AssetRecord, type FaceEntry, inTimeline } from '../model/asset.ts';
import { foldName, type PersonChanges, type PersonRecord } from '../model/person.ts';
import { batchGet } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { assetCodec, statusAsRead } from './items/asset.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { faceEntryCodec } from './items/face.ts';
import * as faceWrites from './items/face-writes.ts';
import { nameHash, personCodec, personNameItem } from './items/person.ts';
import * as personWrites from './items/person-writes.ts';
import { done, doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll, queryPages } from './query.ts';
import { deleteWrite, isCancelled, putWrite, setFields, transact, tryTransact, tryWriteOne, updateWrite, writeOne } from './transact.ts';

export const get = async (ownerId: string, personId: string): Promise<PersonRecord | undefined> => {
  const item = await getItem(keys.person(ownerId, personId));
  return item ? personCodec.read(item) : undefined;
};

export const list = async (ownerId: string): Promise<PersonRecord[]> =>
  (await queryAll(partitions.userPeople(ownerId))).map(personCodec.read);

export const getMany = async (ownerId: string, personIds: readonly string[]): Promise<PersonRecord[]> =>
  (await batchGet([...new Set(personIds)].map((id) => keys.person(ownerId, id)))).map(personCodec.read);

/** The owner's people with these names (case-insensitive): folded name → personId. */
export const findByName = async (ownerId: string, names: readonly string[]): Promise<Map<string, string>> => {
  const folded = [...new Set(names.map(foldName))];
  const guards = await batchGet(folded.map((name) => keys.personName(ownerId, nameHash(name))));
  return new Map(guards.map((guard) => [String(guard.name), String(guard.personId)]));
};

/** A person's faces with their assets' status (gsi2), in date order. */
export const listFaces = async (personId: string, options: { descending?: boolean } = {}): Promise<FaceEntry[]> =>
  (await queryAll(partitions.personFaces(personId), options)).map(faceEntryCodec.read);

/**
 * A person stored before their count of faces in the timeline was kept (docs/data-model.md,
 * "Earlier shapes"), counted once from their faces: the person as stored now (consistent), their
 * faces' ids (pattern 21's Query), each face item read consistently (its person and its asset's
 * status as they are now), then the count written on condition that both counts are still those
 * read first (every write that moves a face moves one). When the faces found are not all the
 * person's faces (the index lags a write) or a write came between, the person is answered
 * uncounted (null) and counted by a later read.
 */
export const countTimelineFaces = async (person: PersonRecord): Promise<PersonRecord> => {
  const item = await getItem(keys.person(person.ownerId, person.id));
  if (!item) return person;
  const current = personCodec.read(item);
  if (current.timelineFaceCount !== null) return current;
  const stray = typeof item.timelineFaceCount === 'number' ? item.timelineFaceCount : undefined;
  const entries = await listFaces(person.id);
  const faces = (
    await batchGet(
      entries.map((face) => keys.assetFace(face.assetId, face.id)),
      { consistent: true },
    )
  )
    .filter((face) => face.personId === person.id)
    .map(faceEntryCodec.read);
  if (faces.length !== current.faceCount) return current;
  const timeline = faces.filter((face) => inTimeline(face)).length;
  try {
    await writeOne(personWrites.countTimelineFaces(current, stray, timeline));
    return { ...current, timelineFaceCount: timeline };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return current;
    throw error;
  }
};

/** The ids of the assets a person's faces are on, page by page in date order (a search driver). */
export async function* personAssetIdPages(
  personId: string,
  options: { descending: boolean; pageSize: number },
): AsyncGenerator<string[], void, void> {
  for await (const page of queryPages(partitions.personFaces(personId), { ...options, attributes: ['assetId'] }))
    yield page.map((item) => String(item.assetId));
}

/**
 * Applies the changes if the person is still the owner's (else `gone`). A rename moves the name
 * guard in the same transaction when the new name is free; when another person already has that
 * name, the rename still happens and uploads keep matching that name to the other person.
 */
export const update = async (person: PersonRecord, changes: PersonChanges): Promise<Outcome<'gone', PersonRecord>> => {
  const now = new Date().toISOString();
  const updated: PersonRecord = { ...person, ...changes, updatedAt: now };
  const fields = Object.fromEntries(Object.entries({ ...changes, updatedAt: now }).filter(([, value]) => value !== undefined));
  const { expression, names, values } = setFields(fields);
  const key = keys.person(person.ownerId, person.id);
  const renamed = changes.name !== undefined && foldName(changes.name) !== foldName(person.name);
  if (renamed && foldName(changes.name ?? '')) {
    const moved = await transact([
      updateWrite(key, expression, { condition: 'present', names, values }),
      putWrite(personNameItem(person.ownerId, changes.name ?? '', person.id), { condition: 'absent' }),
      deleteWrite(keys.personName(person.ownerId, nameHash(person.name)), {
        condition: 'attribute_not_exists(pk) OR personId = :id',
        values: { ':id': person.id },
      }),
    ]).then(
      () => true,
      (error: unknown) => {
        if (isCancelled(error)) return false;
        throw error;
      },
    );
    if (moved) return doneWith(updated);
  }
  const written = await tryWriteOne(updateWrite(key, expression, { condition: 'present', names, values, refusal: 'gone' }));
  return written.ok ? doneWith(updated) : written;
};

/** Records a person's thumbnail (the media function), if the person still exists (else `gone`); a repeat changes nothing. */
export const setThumbnail = (person: Pick<PersonRecord, 'ownerId' | 'id'>, thumbnailPath: string): Promise<Outcome<'gone'>> => {
  const { expression, names, values } = setFields({ thumbnailPath });
  return tryWriteOne(
    updateWrite(keys.person(person.ownerId, person.id), expression, { condition: 'present', names, values, refusal: 'gone' }),
  );
};

/**
 * Creates a person (POST /person). A name still free is claimed for them in the same transaction
 * (uploads then match it); a name another person has is kept all the same, as a rename is.
 */
export const create = async (person: PersonRecord): Promise<void> => {
  if (foldName(person.name)) {
    // A name another person has: created without it.
    if ((await tryTransact([personWrites.create(person), personWrites.claimName(person)])).ok) return;
  }
  await writeOne(personWrites.create(person));
};

/**
 * Moves one asset's faces of `from` to `into` (a merge), in one transaction with the asset's
 * `personIds` (only while it still names `from`, and has the status read: `into` gains the faces
 * in its count of faces in the timeline by it) and both people's face counts. An asset whose
 * status changed meanwhile is read again (consistently) and the move tried again. `moved-already`
 * when a concurrent merge (or a deletion) got there first: then there is nothing left to move.
 */
export const reassignAssetFaces = async (
  asset: Pick<AssetRecord, 'id' | 'personIds' | 'visibility' | 'deletedAt'>,
  faces: readonly { id: string; assetId: string; fileCreatedAt: string }[],
  from: PersonRecord,
  into: PersonRecord,
): Promise<Outcome<'moved-already'>> => {
  let current = asset;
  for (let attempt = 0; attempt < 5; attempt++) {
    const personIds = [...new Set(current.personIds.map((id) => (id === from.id ? into.id : id)))];
    const asRead = statusAsRead(current);
    const timeline = inTimeline(current) ? faces.length : 0;
    const moved = await tryTransact([
      ...faces.map((face) => faceWrites.reassign(face, into.id)),
      updateWrite(keys.asset(current.id), 'SET personIds = :ids', {
        condition: `${asRead.expression} AND contains(personIds, :from)`,
        names: asRead.names,
        values: { ':ids': personIds, ':from': from.id, ...asRead.values },
      }),
      personWrites.addFacesWhilePresent(into.ownerId, into.id, faces.length, { timeline }),
      personWrites.addFaces(from.ownerId, from.id, -faces.length, { timeline: -timeline }),
    ]).then(
      (outcome) => outcome.ok,
      (error: unknown) => {
        if (isCancelled(error)) return false;
        throw error;
      },
    );
    if (moved) return done();
    const item = await getItem(keys.asset(current.id));
    const fresh = item ? assetCodec.read(item) : undefined;
    if (!fresh?.personIds.includes(from.id)) return refused('moved-already');
    current = fresh;
  }
  return refused('moved-already');
};

/** Deletes a merged person and the name guard that pointed at them. */
export const remove = async (person: PersonRecord): Promise<void> => {
  await transact([
    deleteWrite(keys.person(person.ownerId, person.id), { sync: 'recorded' }),
    deletionWrites.person(person.ownerId, person.id),
    deleteWrite(keys.personName(person.ownerId, nameHash(person.name)), {
      condition: 'attribute_not_exists(pk) OR personId = :id',
      values: { ':id': person.id },
    }),
  ]).catch((error: unknown) => {
    // The name belongs to another person: only the person goes.
    if (!isCancelled(error)) throw error;
    return transact([
      deleteWrite(keys.person(person.ownerId, person.id), { sync: 'recorded' }),
      deletionWrites.person(person.ownerId, person.id),
    ]);
  });
};
