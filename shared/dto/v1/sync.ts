import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import type { AssetListQuery } from '../../model/sync.ts';
import { as, booleanish, dto, isDateString, isOneOf, optional, rules, uuid } from '../common.ts';
import { queryDate } from './search.ts';

/** `@Optional() @IsInt() @Type(() => Number)`. */
const integer = () =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => (typeof x === 'string' || typeof x === 'number' ? Number(x) : Number.NaN)),
      v.check((x: number) => Number.isInteger(x), '$property must be an integer number'),
    ),
  );

/**
 * GET /asset query (`AssetSearchDto`): the mobile app's full and delta syncs, read into the model's
 * query (`isArchived` true the archive, false the timeline, absent both).
 */
export const AssetSearchDto = v.pipe(
  dto({
    isFavorite: optional(booleanish()),
    isArchived: optional(booleanish()),
    skip: integer(),
    take: integer(),
    userId: optional(uuid()),
    updatedAfter: queryDate('updatedAfter'),
    updatedBefore: queryDate('updatedBefore'),
  }),
  v.transform(
    ({ isArchived, ...query }): AssetListQuery => ({
      ...query,
      visibility: isArchived === undefined || isArchived === null ? undefined : isArchived ? 'archive' : 'timeline',
    }),
  ),
);
export type AssetSearchInput = v.InferOutput<typeof AssetSearchDto>;

const entityTypes = ['ASSET', 'ALBUM'] as const;

/** GET /audit/deletes query (`AuditDeletesDto`). */
export const AuditDeletesDto = dto({
  // `@ValidateDate()`: a value that is not a date string stops the request; absent, IsDate and IsNotEmpty report.
  after: v.pipe(
    v.unknown(),
    v.transform((x: unknown) => {
      if (x === undefined || x === null) return x;
      if (!isDateString(x)) throw new Invalid('after must be a date string');
      return new Date(x);
    }),
    v.check((x: unknown) => x instanceof Date && !Number.isNaN(x.getTime()), '$property must be a Date instance'),
    rules.isNotEmpty,
    v.transform((x: unknown) => (x as Date).toISOString()),
  ),
  entityType: v.pipe(v.unknown(), isOneOf(entityTypes), as<(typeof entityTypes)[number]>()),
  userId: optional(uuid()),
});
