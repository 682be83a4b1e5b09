import * as v from 'valibot';
import type { ActivityFilter, NewActivity } from '../../model/activity.ts';
import { as, dto, isOneOf, optional, uuid } from '../common.ts';

const types = ['comment', 'like'] as const;
const levels = ['album', 'asset'] as const;

/** `ActivityDto` (GET /activity/statistics). */
export const ActivityDto = dto({ albumId: uuid(), assetId: optional(uuid()) });

/** `ActivitySearchDto` (GET /activity). */
export const ActivitySearchDto = v.pipe(
  dto({
    albumId: uuid(),
    assetId: optional(uuid()),
    type: optional(v.pipe(v.unknown(), isOneOf(types), as<(typeof types)[number]>())),
    level: optional(v.pipe(v.unknown(), isOneOf(levels), as<(typeof levels)[number]>())),
    userId: optional(uuid()),
  }),
  v.transform(
    (query): ActivityFilter => ({
      albumId: query.albumId,
      assetId: query.assetId ?? undefined,
      level: query.level ?? undefined,
      type: query.type ?? undefined,
      userId: query.userId ?? undefined,
    }),
  ),
);

/** `ActivityCreateDto` (POST /activity): a comment must be a non-empty text; a like's is dropped. */
export const ActivityCreateDto = v.pipe(
  dto({
    albumId: uuid(),
    assetId: optional(uuid()),
    type: v.pipe(v.unknown(), isOneOf(types), as<(typeof types)[number]>()),
    comment: v.unknown(),
  }),
  // class-validator's @ValidateIf(type is comment) @IsNotEmpty() @IsString(), reported in its order.
  v.forward(
    v.check((body) => body.type !== 'comment' || typeof body.comment === 'string', 'comment must be a string'),
    ['comment'],
  ),
  v.forward(
    v.check(
      (body) => body.type !== 'comment' || (body.comment !== '' && body.comment !== null && body.comment !== undefined),
      'comment should not be empty',
    ),
    ['comment'],
  ),
  v.transform(
    (body): NewActivity => ({
      albumId: body.albumId,
      assetId: body.assetId ?? undefined,
      type: body.type,
      comment: typeof body.comment === 'string' ? body.comment : undefined,
    }),
  ),
);
