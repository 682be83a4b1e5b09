/**
 * Immich v3.2's people requests (`@immich/sdk` 3.2.2: PersonCreateDto, PersonUpdateDto,
 * PeopleUpdateDto, MergePersonDto, and GET /people's query), read into the one model's inputs.
 */
import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import type { NewPerson, PersonEdit } from '../../model/person.ts';
import { boolean, coercedInteger, hexColor, integer, object, stringToBool, text, upTo, uuid, uuids } from './common.ts';

/** A birth date (`YYYY-MM-DD` or a date-time), not in the future, as the instant it names; null clears it. */
const birthDate = v.optional(
  v.nullable(
    v.pipe(
      v.string('$property must be a date'),
      v.check((x) => /^\d{4}-\d{2}-\d{2}/.test(x) && !Number.isNaN(new Date(x).getTime()), '$property must be a date'),
      v.transform((x) => new Date(x)),
      v.check((x) => x.getTime() <= Date.now(), 'Birth date cannot be in the future'),
      v.transform((x) => x.toISOString()),
    ),
  ),
);
const color = hexColor;

const personFields = {
  name: v.optional(text(limits.name)),
  birthDate,
  isHidden: v.optional(boolean),
  isFavorite: v.optional(boolean),
  color,
};

export const PersonCreateDtoV3 = v.pipe(
  object(personFields),
  v.transform((input): NewPerson => input),
);

const editFields = { ...personFields, featureFaceAssetId: v.optional(uuid) };

export const PersonUpdateDtoV3 = v.pipe(
  object(editFields),
  v.transform((input): PersonEdit => input),
);

export const PeopleUpdateDtoV3 = object({
  people: upTo(
    limits.bulkGroups,
    v.array(
      v.pipe(
        object({ ...editFields, id: uuid }),
        v.transform((input): PersonEdit & { id: string } => input),
      ),
      '$property must be an array',
    ),
  ),
});

/** GET /people: pages of `size` (500 by default, as Immich); `closestPersonId`/`closestAssetId` (face similarity) are read and change nothing here. */
export const PersonSearchDtoV3 = object({
  withHidden: v.optional(stringToBool),
  page: v.optional(coercedInteger(1), 1),
  size: v.optional(coercedInteger(1, 1000), 500),
  closestPersonId: v.optional(uuid),
  closestAssetId: v.optional(uuid),
});

export const MergePersonDtoV3 = object({
  ids: v.pipe(uuids, v.maxLength(limits.mergePeople, `$property must contain at most ${limits.mergePeople} elements`)),
});

/** GET /faces `?id=`: the asset whose faces are listed (`FaceDto`). */
export const FaceDto = object({ id: uuid });

/** PUT /faces/:id's body (`FaceDto`): the face to reassign. */
export const FaceIdDto = object({ id: uuid });

/** `AssetFaceUpdateDto` (PUT /people/:id/reassign). */
export const AssetFaceUpdateDto = object({
  data: v.pipe(
    v.array(object({ assetId: uuid, personId: uuid }), '$property must be an array'),
    v.maxLength(limits.reassignFaces, `$property must contain at most ${limits.reassignFaces} items`),
  ),
});

/** `AssetFaceCreateDto` (POST /faces): a box on an image of a size, in its pixels (a box and an image of no size are refused). */
export const AssetFaceCreateDto = object({
  assetId: uuid,
  personId: uuid,
  imageWidth: integer(1),
  imageHeight: integer(1),
  x: integer(0),
  y: integer(0),
  width: integer(1),
  height: integer(1),
});

/** `AssetFaceDeleteDto` (DELETE /faces/:id). */
export const AssetFaceDeleteDto = object({ force: boolean });
