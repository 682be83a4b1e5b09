import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import type { FaceRecord } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import type { PersonRecord } from '../../model/person.ts';
import { as, booleanish, dto, isDateString, objectList, optional, rules, uuidList } from '../common.ts';

/**
 * `@MaxDate(now) @ValidateDate({ optional: true, nullable: true, format: 'date' })`: a value that
 * is not a date string stops the request (Immich throws in its transform); null clears it. Stored
 * as PostgreSQL's `date` column keeps it: the UTC calendar day of the instant (`1990-01-01`).
 */
const birthDate = () =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => {
        if (!isDateString(x)) throw new Invalid('birthDate must be a date string');
        return new Date(x);
      }),
      v.check((x: Date) => !Number.isNaN(x.getTime()), '$property must be a Date instance'),
      v.check((x: Date) => x.getTime() <= Date.now(), 'Birth date cannot be in the future'),
      v.transform((x: Date) => x.toISOString().slice(0, 10)),
    ),
  );

/**
 * `PersonUpdateDto` of v1.100: birthDate as above, name `@Optional() @IsString()`, isHidden
 * `@ValidateBoolean({optional:true})`, featureFaceAssetId `@Optional() @IsString()` (null is
 * validated, as Immich's non-nullable Optional does).
 */
const personUpdateEntries = {
  name: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>())),
  birthDate: birthDate(),
  isHidden: v.optional(booleanish()),
  featureFaceAssetId: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
};

export const PersonUpdateDto = dto(personUpdateEntries);
export type PersonUpdateInput = v.InferOutput<typeof PersonUpdateDto>;

/** `PersonCreateDto` (POST /person). */
export const PersonCreateDto = dto({
  name: v.optional(v.pipe(v.unknown(), rules.maxLength(limits.name), rules.isString, as<string>())),
  birthDate: birthDate(),
  isHidden: v.optional(booleanish()),
});

const PeopleUpdateItem = dto({
  ...personUpdateEntries,
  // `@IsString() @IsNotEmpty()`: reported in reverse.
  id: v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isNotEmpty, rules.isString, as<string>()),
});

/** `PeopleUpdateDto` (PUT /person): `@IsArray() @ValidateNested({ each: true })`. */
export const PeopleUpdateDto = dto({ people: objectList(PeopleUpdateItem) });

/** `MergePersonDto` (POST /person/:id/merge). */
export const MergePersonDto = dto({ ids: uuidList() });

/** `PersonSearchDto`: `withHidden` (query string boolean). */
export const PersonSearchDto = dto({ withHidden: v.optional(booleanish()) });

/** PersonResponseDto without faces. */
export interface PersonResponseDto {
  id: string;
  name: string;
  birthDate: string | null;
  thumbnailPath: string;
  isHidden: boolean;
}

export interface AssetFaceWithoutPersonResponseDto {
  id: string;
  imageWidth: number;
  imageHeight: number;
  boundingBoxX1: number;
  boundingBoxX2: number;
  boundingBoxY1: number;
  boundingBoxY2: number;
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

export const mapFace = (face: FaceRecord): AssetFaceWithoutPersonResponseDto => ({
  id: face.id,
  imageWidth: face.imageWidth,
  imageHeight: face.imageHeight,
  boundingBoxX1: face.boundingBoxX1,
  boundingBoxX2: face.boundingBoxX2,
  boundingBoxY1: face.boundingBoxY1,
  boundingBoxY2: face.boundingBoxY2,
});

/** Immich's `peopleWithFaces`: one entry per distinct person among the faces, in the faces' order. */
export const peopleWithFaces = (faces: readonly FaceRecord[], people: ReadonlyMap<string, PersonRecord>): PersonWithFacesResponseDto[] => {
  const result = new Map<string, PersonWithFacesResponseDto>();
  for (const face of faces) {
    const person = people.get(face.personId);
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

export const mapPeople = ({
  total,
  hidden,
  people,
}: {
  total: number;
  hidden: number;
  people: readonly PersonRecord[];
}): PeopleResponseDto => ({
  total,
  hidden,
  people: people.map(mapPerson),
});

export interface PersonStatisticsResponseDto {
  assets: number;
}
