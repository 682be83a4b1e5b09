import * as v from 'valibot';
import { absentOr, as, booleanish, dto, isOneOf, rules, uuid } from '../common.ts';
import { enumOf } from './search.ts';

const sizes = ['DAY', 'MONTH'] as const;

const timeBucketEntries = {
  // `@IsNotEmpty() @IsEnum(TimeBucketSize)`: class-validator reports the enum first.
  size: v.pipe(v.unknown(), isOneOf(sizes), rules.isNotEmpty, as<(typeof sizes)[number]>()),
  userId: absentOr(uuid()),
  albumId: absentOr(uuid()),
  personId: absentOr(uuid()),
  isArchived: absentOr(booleanish()),
  isFavorite: absentOr(booleanish()),
  isTrashed: absentOr(booleanish()),
  withStacked: absentOr(booleanish()),
  withPartners: absentOr(booleanish()),
  order: v.pipe(
    enumOf(['asc', 'desc'] as const),
    v.transform((x) => x ?? undefined),
  ),
};

/** `isArchived` as the model's visibility: true the archive, false the timeline, absent both. */
const visibilityOf = (isArchived: boolean | undefined) =>
  isArchived === undefined ? undefined : isArchived ? ('archive' as const) : ('timeline' as const);

/**
 * A timeline query as the one model takes it: `isArchived` its visibility, and (as Immich v1.100's
 * checks read it) asking for the archive unless it is false.
 */
const toQuery = <T extends { isArchived?: boolean | undefined }>({ isArchived, ...query }: T) => ({
  ...query,
  visibility: visibilityOf(isArchived),
  archiveAsked: isArchived !== false,
});

/** GET /asset/time-buckets query (`TimeBucketDto`). */
export const TimeBucketDto = v.pipe(dto(timeBucketEntries), v.transform(toQuery));

/** GET /asset/time-bucket query (`TimeBucketAssetDto`): a bucket's start as the bucket list gave it. */
export const TimeBucketAssetDto = v.pipe(
  dto({
    ...timeBucketEntries,
    timeBucket: v.pipe(v.unknown(), rules.isString, as<string>()),
  }),
  v.transform(toQuery),
);

/** GET /asset/statistics query (`AssetStatsDto`), `isArchived` read into the model's visibility. */
export const AssetStatsDto = v.pipe(
  dto({
    isArchived: absentOr(booleanish()),
    isFavorite: absentOr(booleanish()),
    isTrashed: absentOr(booleanish()),
  }),
  v.transform(({ isArchived, ...filter }) => ({ ...filter, visibility: visibilityOf(isArchived) })),
);

/** GET /asset/random query (`RandomAssetsDto`): `@Optional() @IsInt() @IsPositive() @Type(() => Number)`. */
export const RandomAssetsDto = dto({
  count: absentOr(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => (typeof x === 'string' || typeof x === 'number' ? Number(x) : Number.NaN)),
      v.check((x: number) => x > 0, '$property must be a positive number'),
      v.check((x: number) => Number.isInteger(x), '$property must be an integer number'),
    ),
  ),
});
