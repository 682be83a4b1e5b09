import { createHash } from 'node:crypto';
import { foldName, type PersonRecord, PersonRecordSchema } from '../../model/person.ts';
import { codec } from '../codec.ts';
import { keys } from '../keys.ts';
import { putWrite, updateWrite, type Write } from '../transact.ts';

export const personCodec = codec('person', PersonRecordSchema);

/** Fixed-size key for a folded name (names can be longer than a sort key may be). */
export const nameHash = (name: string): string => createHash('sha256').update(foldName(name)).digest('base64url');

export class PersonNameTakenError extends Error {}

export const personItem = (person: PersonRecord) => ({ ...keys.person(person.ownerId, person.id), type: 'person', ...person });

export const personNameItem = (ownerId: string, name: string, personId: string) => ({
  ...keys.personName(ownerId, nameHash(name)),
  type: 'personName',
  personId,
  name: foldName(name),
});

export const personWrites = {
  create: (person: PersonRecord): Write => putWrite(personItem(person), { condition: 'absent' }),
  /** One person per name per owner: a concurrent upload naming the same new person cancels this one. */
  claimName: (person: PersonRecord): Write =>
    putWrite(personNameItem(person.ownerId, person.name, person.id), {
      condition: 'absent',
      onConditionFailed: () => new PersonNameTakenError(),
    }),
  /** Faces gained (or lost, negative) by a person. */
  addFaces: (ownerId: string, personId: string, count: number, options: { mustExist: boolean }): Write =>
    updateWrite(keys.person(ownerId, personId), 'ADD faceCount :n', {
      values: { ':n': count },
      sync: 'unsent',
      ...(options.mustExist ? { condition: 'present', onConditionFailed: () => new PersonNameTakenError() } : {}),
    }),
};
