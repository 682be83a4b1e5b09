import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch.ts';
import { db, tableName } from './client.ts';
import { keys, prefixes } from './keys.ts';
import { queryPrefix } from './query.ts';
import { transact } from './transact.ts';
import { strip } from './items.ts';

/** A person (item type `person`), stored under its owner. */
export interface PersonRecord {
  id: string;
  ownerId: string;
  name: string;
  /** `YYYY-MM-DD` or null. */
  birthDate: string | null;
  isHidden: boolean;
  thumbnailPath: string;
  /** The asset whose face is the person's feature face (PUT /person featureFaceAssetId). */
  faceAssetId: string | null;
  /** Faces of this person across the owner's assets (Immich orders people by it). */
  faceCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Names match case-insensitively (and whatever Unicode form the file used). */
export const foldName = (name: string): string => name.normalize('NFKC').trim().toLowerCase();

/** Fixed-size key for a folded name (names can be longer than a sort key may be). */
export const nameHash = (name: string): string => createHash('sha256').update(foldName(name)).digest('base64url');

export const personItem = (person: PersonRecord) => ({ ...keys.person(person.ownerId, person.id), type: 'person', ...person });

export const personNameItem = (ownerId: string, name: string, personId: string) => ({
  ...keys.personName(ownerId, nameHash(name)),
  type: 'personName',
  personId,
  name: foldName(name),
});

export const getPerson = async (ownerId: string, personId: string): Promise<PersonRecord | undefined> => {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.person(ownerId, personId), ConsistentRead: true }));
  return Item ? strip<PersonRecord>(Item) : undefined;
};

export const listPeople = async (ownerId: string): Promise<PersonRecord[]> =>
  (await queryPrefix<Record<string, unknown>>(keys.user(ownerId).pk, prefixes.userPeople)).map((item) => strip<PersonRecord>(item));

export const getPeople = async (ownerId: string, personIds: readonly string[]): Promise<PersonRecord[]> =>
  (await batchGet<Record<string, unknown>>([...new Set(personIds)].map((id) => keys.person(ownerId, id)))).map((item) => strip<PersonRecord>(item));

/** The owner's people with these names (case-insensitive): folded name → personId. */
export const findPeopleByName = async (ownerId: string, names: readonly string[]): Promise<Map<string, string>> => {
  const folded = [...new Set(names.map(foldName))];
  const guards = await batchGet<{ personId: string; name: string }>(folded.map((name) => keys.personName(ownerId, nameHash(name))));
  return new Map(guards.map((guard) => [guard.name, guard.personId]));
};

export interface PersonChanges {
  name?: string;
  birthDate?: string | null;
  isHidden?: boolean;
  faceAssetId?: string;
}

/**
 * Applies the changes if the person is still the owner's. A rename moves the name guard in the
 * same transaction when the new name is free; when another person already has that name, the
 * rename still happens and uploads keep matching that name to the other person.
 */
export const updatePerson = async (person: PersonRecord, changes: PersonChanges): Promise<PersonRecord | undefined> => {
  const now = new Date().toISOString();
  const updated: PersonRecord = { ...person, ...changes, updatedAt: now } as PersonRecord;
  const sets = Object.keys(changes).filter((key) => changes[key as keyof PersonChanges] !== undefined);
  const names = Object.fromEntries([...sets, 'updatedAt'].map((key) => [`#${key}`, key]));
  const values = Object.fromEntries([...sets, 'updatedAt'].map((key) => [`:${key}`, updated[key as keyof PersonRecord]]));
  const update = {
    TableName: tableName,
    Key: keys.person(person.ownerId, person.id),
    UpdateExpression: `SET ${[...sets, 'updatedAt'].map((key) => `#${key} = :${key}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  const renamed = changes.name !== undefined && foldName(changes.name) !== foldName(person.name);
  try {
    if (renamed && foldName(changes.name ?? '')) {
      const moved = await transact([
        { item: { Update: update } },
        { item: { Put: { TableName: tableName, Item: personNameItem(person.ownerId, changes.name ?? '', person.id), ConditionExpression: 'attribute_not_exists(pk)' } } },
        {
          item: {
            Delete: {
              TableName: tableName,
              Key: keys.personName(person.ownerId, nameHash(person.name)),
              ConditionExpression: 'attribute_not_exists(pk) OR personId = :id',
              ExpressionAttributeValues: { ':id': person.id },
            },
          },
        },
      ]).then(
        () => true,
        (error: unknown) => {
          if ((error as { name?: string }).name === 'TransactionCanceledException') return false;
          throw error;
        },
      );
      if (moved) return updated;
    }
    await db.send(new UpdateCommand(update));
    return updated;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};
