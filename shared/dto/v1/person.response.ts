import type { FaceRecord } from '../../model/asset.ts';
import type { People, PersonRecord } from '../../model/person.ts';
import { type AssetFaceWithoutPersonResponseDto, mapFace } from '../common/person.response.ts';

/** PersonResponseDto without faces. */
export interface PersonResponseDto {
  id: string;
  name: string;
  birthDate: string | null;
  thumbnailPath: string;
  isHidden: boolean;
}

export interface PersonWithFacesResponseDto extends PersonResponseDto {
  faces: AssetFaceWithoutPersonResponseDto[];
}

export const mapPerson = (person: PersonRecord): PersonResponseDto => ({
  id: person.id,
  name: person.name,
  birthDate: person.birthDate,
  thumbnailPath: person.thumbnailPath,
  isHidden: person.isHidden,
});

/** Immich's `peopleWithFaces`: one entry per distinct person among the faces, in the faces' order. */
export const peopleWithFaces = (faces: readonly FaceRecord[], people: ReadonlyMap<string, PersonRecord>): PersonWithFacesResponseDto[] => {
  const result = new Map<string, PersonWithFacesResponseDto>();
  for (const face of faces) {
    const person = face.personId === null ? undefined : people.get(face.personId);
    if (!person) continue;
    let entry = result.get(person.id);
    if (!entry) {
      entry = { ...mapPerson(person), faces: [] };
      result.set(person.id, entry);
    }
    entry.faces.push(mapFace(face));
  }
  return [...result.values()];
};

export interface PeopleResponseDto {
  total: number;
  hidden: number;
  people: PersonResponseDto[];
}

export const mapPeople = ({ total, hidden, people }: People): PeopleResponseDto => ({
  total,
  hidden,
  people: people.map(mapPerson),
});

/** v1.100's `AssetFaceResponseDto` (GET /face): a face with its person, null for someone else's. */
export type AssetFaceResponseDto = AssetFaceWithoutPersonResponseDto & { person: PersonResponseDto | null };

export const mapAssetFace = ({ face, person }: { face: FaceRecord; person: PersonRecord | undefined }): AssetFaceResponseDto => ({
  ...mapFace(face),
  person: person ? mapPerson(person) : null,
});
