/**
 * Immich v3.2's activity (`@immich/sdk` 3.2.2: ActivityCreateDto, ReactionType, ReactionLevel),
 * over the same likes and comments as v1.100's `/activity` routes.
 */
import * as v from 'valibot';
import type { ActivityFilter, NewActivity } from '../../model/activity.ts';
import { object, picklist, uuid } from './common.ts';

const types = ['comment', 'like'] as const;

export const ActivityDto = object({ albumId: uuid, assetId: v.optional(uuid) });

export const ActivitySearchDto = v.pipe(
  object({
    albumId: uuid,
    assetId: v.optional(uuid),
    type: v.optional(picklist(types)),
    level: v.optional(picklist(['album', 'asset'] as const)),
    userId: v.optional(uuid),
  }),
  v.transform((query): ActivityFilter => query),
);

/** A comment needs its text, and only a comment has one (3.2's refinements, with their messages). */
export const ActivityCreateDto = v.pipe(
  object({ albumId: uuid, assetId: v.optional(uuid), type: picklist(types), comment: v.optional(v.string('$property must be a string')) }),
  v.forward(
    v.check((body) => body.type !== 'comment' || (body.comment ?? '').trim() !== '', 'Comment is required when type is COMMENT'),
    ['comment'],
  ),
  v.forward(
    v.check((body) => body.type === 'comment' || body.comment === undefined, 'Comment must not be provided when type is not COMMENT'),
    ['comment'],
  ),
  v.transform((body): NewActivity => body),
);
