/**
 * Immich v3.2's timeline (`@immich/sdk` 3.2.2: TimeBucketDto, TimeBucketAssetDto,
 * TimeBucketsResponseDto, TimeBucketAssetResponseDto): months of local time, and a month's assets
 * as columns (one array a field), over the same counters and queries as v1.100's
 * `/asset/time-buckets` and `/asset/time-bucket`.
 */
import * as v from 'valibot';
import { type AssetRecord, type AssetVisibility, dimensionsOf } from '../../model/asset.ts';
import type { BucketAssets } from '../../model/time-bucket.ts';
import { object, picklist, stringToBool, text, uuid } from './common.ts';

const query = {
  userId: v.optional(uuid),
  albumId: v.optional(uuid),
  personId: v.optional(uuid),
  tagId: v.optional(uuid),
  isFavorite: v.optional(stringToBool),
  isTrashed: v.optional(stringToBool),
  visibility: v.optional(picklist(['archive', 'timeline', 'hidden', 'locked'] as const)),
  withStacked: v.optional(stringToBool),
  withPartners: v.optional(stringToBool),
  withCoordinates: v.optional(stringToBool),
  order: v.optional(picklist(['asc', 'desc'] as const)),
  orderBy: v.optional(picklist(['takenAt', 'createdAt'] as const)),
  key: v.optional(v.string()),
  slug: v.optional(v.string()),
  bbox: v.optional(v.string()),
};

/** v3 asks for the archive only by naming it (the model's `archiveAsked`); a named visibility makes the withPartners refusal name the locked folder. */
const asked = (visibility: AssetVisibility | undefined) => ({
  archiveAsked: visibility === 'archive',
  visibilityNamed: visibility !== undefined,
});

/**
 * GET /timeline/buckets: v3's months (always months), filtered as v1.100's buckets are (visibility
 * for `isArchived`), or a tag's (`tagId`). A map box (`bbox`) and ordering by upload
 * (`orderBy=createdAt`) are not served yet: refused, not ignored.
 */
export const TimeBucketDtoV3 = v.pipe(
  object(query),
  v.check((input) => input.bbox === undefined, 'bbox is not supported by this server yet'),
  v.check((input) => input.orderBy !== 'createdAt', 'orderBy=createdAt is not supported by this server yet'),
  v.transform(({ bbox: _b, orderBy: _o, key: _k, slug: _s, withCoordinates: _c, ...filter }) => ({
    ...filter,
    ...asked(filter.visibility),
    size: 'MONTH' as const,
  })),
);

/** GET /timeline/bucket: one month (`2024-01-01`), and whether to add coordinates. */
export const TimeBucketAssetDtoV3 = v.pipe(
  object({ ...query, timeBucket: text(40) }),
  v.check((input) => input.bbox === undefined, 'bbox is not supported by this server yet'),
  v.check((input) => input.orderBy !== 'createdAt', 'orderBy=createdAt is not supported by this server yet'),
  v.transform(({ bbox: _b, orderBy: _o, key: _k, slug: _s, ...filter }) => ({
    ...filter,
    ...asked(filter.visibility),
    size: 'MONTH' as const,
  })),
);

export interface TimeBucketsResponseDto {
  timeBucket: string;
  count: number;
}

/** v3 names a month by its first day, as a date (`2024-01-01`). */
export const mapBucketsV3 = (buckets: readonly { timeBucket: string; count: number }[]): TimeBucketsResponseDto[] =>
  buckets.map(({ timeBucket, count }) => ({ timeBucket: timeBucket.slice(0, 10), count }));

export interface TimeBucketAssetResponseDto {
  id: string[];
  ownerId: string[];
  ratio: number[];
  isFavorite: boolean[];
  visibility: AssetVisibility[];
  isTrashed: boolean[];
  isImage: boolean[];
  thumbhash: (string | null)[];
  fileCreatedAt: string[];
  createdAt: string[];
  localOffsetHours: number[];
  duration: (number | null)[];
  projectionType: (string | null)[];
  livePhotoVideoId: (string | null)[];
  city?: (string | null)[];
  country?: (string | null)[];
  latitude?: (number | null)[];
  longitude?: (number | null)[];
  stack?: (string[] | null)[];
}

const column = <T>(assets: readonly AssetRecord[], pick: (asset: AssetRecord) => T): T[] => assets.map(pick);

/** Width over height as shown, three decimals; 1 when unknown. */
const ratioOf = (asset: AssetRecord): number => {
  const { width, height } = dimensionsOf(asset);
  return width && height ? Math.round((width / height) * 1000) / 1000 : 1;
};

/**
 * v3's columns: the assets in order of their local day, then the time taken; places only when the
 * view shows metadata, coordinates only when asked (and shown), stacks when asked.
 */
export const mapBucketAssetsV3 = (
  { assets, sanitized }: BucketAssets,
  callerId: string,
  options: { order?: 'asc' | 'desc' | undefined; withCoordinates?: boolean | undefined; withStacked?: boolean | undefined },
): TimeBucketAssetResponseDto => {
  const direction = options.order === 'asc' ? 1 : -1;
  const sorted = [...assets].sort(
    (a, b) =>
      direction *
      (a.localDateTime.slice(0, 10).localeCompare(b.localDateTime.slice(0, 10)) || a.fileCreatedAt.localeCompare(b.fileCreatedAt)),
  );
  return {
    id: column(sorted, (asset) => asset.id),
    ownerId: column(sorted, (asset) => asset.ownerId),
    ratio: column(sorted, ratioOf),
    isFavorite: column(sorted, (asset) => asset.isFavorite && asset.ownerId === callerId),
    visibility: column(sorted, (asset) => asset.visibility),
    isTrashed: column(sorted, (asset) => asset.deletedAt !== null),
    isImage: column(sorted, (asset) => asset.type === 'IMAGE'),
    thumbhash: column(sorted, (asset) => asset.thumbhash),
    fileCreatedAt: column(sorted, (asset) => asset.fileCreatedAt),
    createdAt: column(sorted, (asset) => asset.createdAt),
    localOffsetHours: column(sorted, (asset) => (Date.parse(asset.localDateTime) - Date.parse(asset.fileCreatedAt)) / 3_600_000),
    duration: column(sorted, (asset) => asset.duration),
    projectionType: column(sorted, (asset) => asset.exif.projectionType),
    livePhotoVideoId: column(sorted, (asset) => asset.livePhotoVideoId),
    ...(sanitized ? {} : { city: column(sorted, (asset) => asset.exif.city), country: column(sorted, (asset) => asset.exif.country) }),
    ...(options.withCoordinates && !sanitized
      ? { latitude: column(sorted, (asset) => asset.exif.latitude), longitude: column(sorted, (asset) => asset.exif.longitude) }
      : {}),
    // A stack shows as its primary asset: `[stackId, assetCount]` (Immich's, the count as text).
    ...(options.withStacked
      ? {
          stack: column(sorted, (asset) =>
            asset.stack && asset.stack.primaryAssetId === asset.id ? [asset.stack.id, String(asset.stack.assetCount)] : null,
          ),
        }
      : {}),
  };
};
