/** Immich v1.100's tags (`CreateTagDto`, `UpdateTagDto`, `TagResponseDto`), over the one tag model. */
import * as v from 'valibot';
import { type TagRecord, tagTypes } from '../../model/tag.ts';
import { as, dto, isOneOf, nonEmptyString, optional, rules } from '../common.ts';

/** `CreateTagDto` (POST /tag). */
export const CreateTagDto = dto({
  name: nonEmptyString(1000),
  type: v.pipe(v.unknown(), rules.isNotEmpty, isOneOf(tagTypes), as<(typeof tagTypes)[number]>()),
});

/** `UpdateTagDto` (PATCH /tag/:id): a new name, optional. */
export const UpdateTagDto = v.pipe(
  dto({ name: optional(v.pipe(v.unknown(), rules.isString, as<string>())) }),
  v.transform((body) => ({ name: body.name ?? undefined })),
);

export interface TagResponseDto {
  id: string;
  type: string;
  name: string;
  userId: string;
}

/** v1.100's tag: its name is the tag's value (a v3 tag's full path). */
export const mapTagV1 = (tag: TagRecord): TagResponseDto => ({ id: tag.id, type: tag.type, name: tag.value, userId: tag.ownerId });
