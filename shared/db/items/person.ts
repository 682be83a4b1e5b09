import { createHash } from 'node:crypto';
import { foldName, type PersonRecord, PersonRecordSchema } from '../../model/person.ts';
import { codec } from '../codec.ts';
import * as keys from '../item-keys.ts';

/** A person stored before `timelineFaceCount` was kept right has no `timelineCounted`: its count is read as unknown (null). */
export const personCodec = codec('person', PersonRecordSchema, {}, (item) =>
  item.timelineCounted === true ? item : { ...item, timelineFaceCount: null },
);

/** Fixed-size key for a folded name (names can be longer than a sort key may be). */
export const nameHash = (name: string): string => createHash('sha256').update(foldName(name)).digest('base64url');

export const personItem = (person: PersonRecord) => ({
  ...keys.person(person.ownerId, person.id),
  type: 'person',
  ...person,
  ...(person.timelineFaceCount === null ? { timelineFaceCount: 0 } : { timelineCounted: true }),
});

export const personNameItem = (ownerId: string, name: string, personId: string) => ({
  ...keys.personName(ownerId, nameHash(name)),
  type: 'personName',
  personId,
  name: foldName(name),
});
