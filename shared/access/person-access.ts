/** Access to people (Immich's person access: the owner's alone). */
import * as personRepo from '../db/person.repository.ts';
import type { PersonRecord } from '../model/person.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, type Permission } from './permission.ts';

/** The caller's person. */
export const requirePerson = async (auth: Auth, permission: Permission, personId: string): Promise<PersonRecord> => {
  const person = await personRepo.get(auth.user.id, personId);
  if (!person) throw noAccess(permission);
  return person;
};

/** Those of `personIds` that are the caller's people (one BatchGetItem per 100 ids). */
export const allowedPeople = async (auth: Auth, personIds: readonly string[]): Promise<Set<string>> =>
  new Set((await personRepo.getMany(auth.user.id, personIds)).map((person) => person.id));

/** Every one of `personIds` is the caller's person (one BatchGetItem per 100 ids), else `noAccess(permission)`. */
export const requirePeople = async (auth: Auth, permission: Permission, personIds: readonly string[]): Promise<void> => {
  const wanted = new Set(personIds);
  if ((await allowedPeople(auth, [...wanted])).size !== wanted.size) throw noAccess(permission);
};
