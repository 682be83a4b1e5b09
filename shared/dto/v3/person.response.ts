/** Immich v3.2's people (`@immich/sdk` 3.2.2: PersonResponseDto), over the same records as v1.100's `/person` routes. */
import type { People, PersonRecord } from '../../model/person.ts';

export interface PersonResponseDto {
  id: string;
  name: string;
  birthDate: string | null;
  thumbnailPath: string;
  isHidden: boolean;
  isFavorite: boolean;
  updatedAt: string;
  color?: string;
}

/** v3's `mapPerson`; the colour only once one is chosen. */
export const mapPersonV3 = (person: PersonRecord): PersonResponseDto => ({
  id: person.id,
  name: person.name,
  birthDate: person.birthDate,
  thumbnailPath: person.thumbnailPath,
  isHidden: person.isHidden,
  isFavorite: person.isFavorite,
  updatedAt: person.updatedAt,
  ...(person.color ? { color: person.color } : {}),
});

export interface PeopleResponseDto {
  total: number;
  hidden: number;
  hasNextPage: boolean;
  people: PersonResponseDto[];
}

export const mapPeopleV3 = ({ total, hidden, people, hasNextPage }: People): PeopleResponseDto => ({
  total,
  hidden,
  hasNextPage: hasNextPage ?? false,
  people: people.map(mapPersonV3),
});
