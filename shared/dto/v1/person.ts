import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import { limits } from '../../model/limits.ts';
import { as, booleanish, dto, isDateString, maxItems, objectList, optional, rules, uuid, uuidList } from '../common.ts';

/**
 * `@MaxDate(now) @ValidateDate({ optional: true, nullable: true, format: 'date' })`: a value that
 * is not a date string stops the request (Immich throws in its transform); null clears it. As the
 * instant it names (ISO), which the service stores as PostgreSQL's `date` column keeps it: the UTC
 * calendar day (`1990-01-01`, `birthDay` in shared/model/person.ts).
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
      v.transform((x: Date) => x.toISOString()),
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
export const PeopleUpdateDto = dto({ people: v.pipe(objectList(PeopleUpdateItem), maxItems(limits.bulkGroups)) });

/** `MergePersonDto` (POST /person/:id/merge). */
export const MergePersonDto = dto({ ids: v.pipe(uuidList(), maxItems(limits.mergePeople)) });

/** `PersonSearchDto`: `withHidden` (query string boolean). */
export const PersonSearchDto = dto({ withHidden: v.optional(booleanish()) });

/** `FaceDto` (PUT /face/:id's body): the face to reassign. */
export const FaceIdDto = dto({ id: uuid() });

/** `AssetFaceUpdateDto` (PUT /person/:id/reassign): whose faces on which assets. */
export const AssetFaceUpdateDto = dto({
  data: v.pipe(objectList(dto({ assetId: uuid(), personId: uuid() })), maxItems(limits.reassignFaces)),
});
