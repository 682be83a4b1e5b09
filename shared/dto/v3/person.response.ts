/** Immich v3.2's people (`@immich/sdk` 3.2.2: PersonResponseDto), over the same records as v1.100's `/person` routes. */
import type { FaceRecord } from '../../model/asset.ts';
import type { People, PersonRecord } from '../../model/person.ts';
import { mapFace } from '../common/person.response.ts';

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

/** v3's `AssetFaceResponseDto` (GET /faces): v1.100's with the face's source (`exif`: a region of the file). */
export interface AssetFaceResponseDto {
  id: string;
  imageWidth: number;
  imageHeight: number;
  boundingBoxX1: number;
  boundingBoxY1: number;
  boundingBoxX2: number;
  boundingBoxY2: number;
  person: PersonResponseDto | null;
  sourceType: 'exif' | 'machine-learning' | 'manual';
}

export const mapAssetFaceV3 = ({ face, person }: { face: FaceRecord; person: PersonRecord | undefined }): AssetFaceResponseDto => ({
  ...mapFace(face),
  person: person ? mapPersonV3(person) : null,
  sourceType: face.sourceType,
});
