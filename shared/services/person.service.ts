import type { Auth } from '../auth/authenticate.ts';
import { getAssetWithFaces } from '../db/asset.repository.ts';
import { getPerson as readPerson, listPeople, updatePerson as writePerson, type PersonChanges, type PersonRecord } from '../db/person.repository.ts';
import { BadRequestException } from '../http/errors.ts';
import { mapPerson, type PersonResponseDto } from '../mappers/person.mapper.ts';
import type { PersonUpdateInput } from '../schemas/person.ts';

export interface PeopleResponseDto {
  total: number;
  hidden: number;
  people: PersonResponseDto[];
}

/** A person of the caller's, or Immich's 400 for anyone else's or a missing one. */
const ownPerson = async (auth: Auth, id: string, permission: 'read' | 'write'): Promise<PersonRecord> => {
  const person = await readPerson(auth.user.id, id);
  if (!person) throw new BadRequestException(`Not found or no person.${permission} access`);
  return person;
};

/**
 * GET /person, in Immich's order: visible before hidden, named before unnamed, more faces first,
 * then by name. `total` counts all the caller's people, `hidden` the hidden ones.
 */
export const getAllPeople = async (auth: Auth, withHidden: boolean): Promise<PeopleResponseDto> => {
  const all = (await listPeople(auth.user.id)).filter((person) => person.faceCount > 0);
  const ordered = all
    .filter((person) => withHidden || !person.isHidden)
    .sort(
      (a, b) =>
        Number(a.isHidden) - Number(b.isHidden) ||
        Number(a.name === '') - Number(b.name === '') ||
        b.faceCount - a.faceCount ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );
  return { total: all.length, hidden: all.filter((person) => person.isHidden).length, people: ordered.map(mapPerson) };
};

export const getPerson = async (auth: Auth, id: string): Promise<PersonResponseDto> => mapPerson(await ownPerson(auth, id, 'read'));

/** PUT /person/:id: name, birth date, hidden, and the feature face (an asset of the caller's showing this person). */
export const updatePerson = async (auth: Auth, id: string, dto: PersonUpdateInput): Promise<PersonResponseDto> => {
  const person = await ownPerson(auth, id, 'write');
  const changes: PersonChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.birthDate !== undefined) changes.birthDate = dto.birthDate;
  if (dto.isHidden !== undefined) changes.isHidden = dto.isHidden;
  if (dto.featureFaceAssetId !== undefined) {
    const found = await getAssetWithFaces(dto.featureFaceAssetId);
    if (!found || found.asset.ownerId !== auth.user.id) throw new BadRequestException('Not found or no asset.read access');
    if (!found.faces.some((face) => face.personId === person.id)) throw new BadRequestException('Invalid assetId for feature face');
    changes.faceAssetId = dto.featureFaceAssetId;
  }
  const updated = await writePerson(person, changes);
  if (!updated) throw new BadRequestException('Not found or no person.write access');
  return mapPerson(updated);
};
