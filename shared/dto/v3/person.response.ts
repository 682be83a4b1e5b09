/** Immich v3.2's people (`@immich/sdk` 3.2.2: PersonResponseDto), over the same records as v1.100's `/person` routes. */
import type { PersonRecord } from '../../model/person.ts';

export interface PersonResponseDto {
  id: string;
  name: string;
  birthDate: string | null;
  thumbnailPath: string;
  isHidden: boolean;
  isFavorite: boolean;
  updatedAt: string;
}

/** v3's `mapPerson`: no person is a favourite here (it is not kept), and no colour is set. */
export const mapPersonV3 = (person: PersonRecord): PersonResponseDto => ({
  id: person.id,
  name: person.name,
  birthDate: person.birthDate,
  thumbnailPath: person.thumbnailPath,
  isHidden: person.isHidden,
  isFavorite: false,
  updatedAt: person.updatedAt,
});
