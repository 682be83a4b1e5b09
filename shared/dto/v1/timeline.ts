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

/** GET /asset/time-buckets query (`TimeBucketDto`). */
export const TimeBucketDto = dto(timeBucketEntries);

/** GET /asset/time-bucket query (`TimeBucketAssetDto`): a bucket's start as the bucket list gave it. */
export const TimeBucketAssetDto = dto({
  ...timeBucketEntries,
  timeBucket: v.pipe(v.unknown(), rules.isString, as<string>()),
});

/** GET /asset/statistics query (`AssetStatsDto`). */
export const AssetStatsDto = dto({
  isArchived: absentOr(booleanish()),
  isFavorite: absentOr(booleanish()),
  isTrashed: absentOr(booleanish()),
});

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
