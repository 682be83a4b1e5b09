import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { AssetRecord, FaceEntry } from '../model/asset.ts';
import { foldName, type PersonChanges, type PersonRecord } from '../model/person.ts';
import { batchGet } from './batch.ts';
import { getItem } from './get.ts';
import { deletionWrites } from './items/deletion.ts';
import { faceEntryCodec, faceWrites } from './items/face.ts';
import { nameHash, PersonNameTakenError, personCodec, personNameItem, personWrites } from './items/person.ts';
import { keys, partitions } from './keys.ts';
import { queryAll, queryPages } from './query.ts';
import { deleteWrite, isCancelled, putWrite, setFields, transact, updateWrite, writeOne } from './transact.ts';

export const getPerson = async (ownerId: string, personId: string): Promise<PersonRecord | undefined> => {
  const item = await getItem(keys.person(ownerId, personId));
  return item ? personCodec.read(item) : undefined;
};

export const listPeople = async (ownerId: string): Promise<PersonRecord[]> =>
  (await queryAll(partitions.userPeople(ownerId))).map(personCodec.read);

export const getPeople = async (ownerId: string, personIds: readonly string[]): Promise<PersonRecord[]> =>
  (await batchGet([...new Set(personIds)].map((id) => keys.person(ownerId, id)))).map(personCodec.read);

/** The owner's people with these names (case-insensitive): folded name → personId. */
export const findPeopleByName = async (ownerId: string, names: readonly string[]): Promise<Map<string, string>> => {
  const folded = [...new Set(names.map(foldName))];
  const guards = await batchGet(folded.map((name) => keys.personName(ownerId, nameHash(name))));
  return new Map(guards.map((guard) => [String(guard.name), String(guard.personId)]));
};

/** A person's faces with their assets' status (gsi2), in date order. */
export const listPersonFaces = async (personId: string, options: { descending?: boolean } = {}): Promise<FaceEntry[]> =>
  (await queryAll(partitions.personFaces(personId), options)).map(faceEntryCodec.read);

/** The ids of the assets a person's faces are on, page by page in date order (a search driver). */
export async function* personAssetIdPages(
  personId: string,
  options: { descending: boolean; pageSize: number },
): AsyncGenerator<string[], void, void> {
  for await (const page of queryPages(partitions.personFaces(personId), { ...options, attributes: ['assetId'] }))
    yield page.map((item) => String(item.assetId));
}

/**
 * Applies the changes if the person is still the owner's. A rename moves the name guard in the
 * same transaction when the new name is free; when another person already has that name, the
 * rename still happens and uploads keep matching that name to the other person.
 */
export const updatePerson = async (person: PersonRecord, changes: PersonChanges): Promise<PersonRecord | undefined> => {
  const now = new Date().toISOString();
  const updated: PersonRecord = { ...person, ...changes, updatedAt: now };
  const fields = Object.fromEntries(Object.entries({ ...changes, updatedAt: now }).filter(([, value]) => value !== undefined));
  const { expression, names, values } = setFields(fields);
  const key = keys.person(person.ownerId, person.id);
  const renamed = changes.name !== undefined && foldName(changes.name) !== foldName(person.name);
  try {
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
      if (moved) return updated;
    }
    await writeOne(updateWrite(key, expression, { condition: 'present', names, values }));
    return updated;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** Records a person's thumbnail (the media function), if the person still exists; a repeat changes nothing. */
export const setPersonThumbnail = async (person: Pick<PersonRecord, 'ownerId' | 'id'>, thumbnailPath: string): Promise<boolean> => {
  const { expression, names, values } = setFields({ thumbnailPath });
  try {
    await writeOne(updateWrite(keys.person(person.ownerId, person.id), expression, { condition: 'present', names, values }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/**
 * Creates a person (POST /person). A name still free is claimed for them in the same transaction
 * (uploads then match it); a name another person has is kept all the same, as a rename is.
 */
export const createPerson = async (person: PersonRecord): Promise<void> => {
  if (foldName(person.name)) {
    try {
      await transact([personWrites.create(person), personWrites.claimName(person)]);
      return;
    } catch (error) {
      if (!(error instanceof PersonNameTakenError)) throw error;
    }
  }
  await writeOne(personWrites.create(person));
};

/**
 * Moves one asset's faces of `from` to `into` (a merge), in one transaction with the asset's
 * `personIds` (only while it still names `from`) and both people's face counts. False when a
 * concurrent merge (or a deletion) got there first: then there is nothing left to move.
 */
export const reassignAssetFaces = async (
  asset: Pick<AssetRecord, 'id' | 'personIds'>,
  faces: readonly { id: string; assetId: string; fileCreatedAt: string }[],
  from: PersonRecord,
  into: PersonRecord,
): Promise<boolean> => {
  const personIds = [...new Set(asset.personIds.map((id) => (id === from.id ? into.id : id)))];
  const moved = await transact([
    ...faces.map((face) => faceWrites.reassign(face, into.id)),
    updateWrite(keys.asset(asset.id), 'SET personIds = :ids', {
      condition: 'attribute_exists(pk) AND contains(personIds, :from)',
      values: { ':ids': personIds, ':from': from.id },
    }),
    personWrites.addFaces(into.ownerId, into.id, faces.length, { mustExist: true }),
    personWrites.addFaces(from.ownerId, from.id, -faces.length, { mustExist: false }),
  ]).then(
    () => true,
    (error: unknown) => {
      if (isCancelled(error) || error instanceof PersonNameTakenError) return false;
      throw error;
    },
  );
  return moved;
};

/** Deletes a merged person and the name guard that pointed at them. */
export const deletePerson = async (person: PersonRecord): Promise<void> => {
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
