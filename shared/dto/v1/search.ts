import * as v from 'valibot';
import { Invalid } from '../../core/errors.ts';
import type { AssetVisibility } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import { as, booleanish, dto, isDateString, isOneOf, maxItems, optional, rules, uuid, uuidV4 } from '../common.ts';

const assetTypes = ['IMAGE', 'VIDEO', 'AUDIO', 'OTHER'] as const;

/** `@IsString() @IsNotEmpty() @Optional()`. */
const text = () => optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isNotEmpty, rules.isString, as<string>()));

/**
 * `@ValidateDate({ optional: true })`: a value that is not a date string stops the request (Immich
 * throws in its transform); an ISO 8601 string JavaScript cannot read as a date (ordinal and week
 * dates such as `2020-366` or `2020-W53-7`) fails `@IsDate` as in Immich.
 */
export const queryDate = (field: string) =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => {
        if (!isDateString(x)) throw new Invalid(`${field} must be a date string`);
        return new Date(x);
      }),
      v.check((x: Date) => !Number.isNaN(x.getTime()), '$property must be a Date instance'),
      v.transform((x: Date) => x.toISOString()),
    ),
  );

/** `@IsInt() @Min(1) [@Max(1000)] @Type(() => Number) @Optional()`, messages in class-validator's order. */
const integer = (max = Number.POSITIVE_INFINITY) =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => (typeof x === 'string' || typeof x === 'number' ? Number(x) : Number.NaN)),
      v.check((x: number) => max === Number.POSITIVE_INFINITY || x <= max, `$property must not be greater than ${max}`),
      v.check((x: number) => x >= 1, '$property must not be less than 1'),
      v.check((x: number) => Number.isInteger(x), '$property must be an integer number'),
    ),
  );

export const enumOf = <const T extends readonly string[]>(values: T) => optional(v.pipe(v.unknown(), isOneOf(values), as<T[number]>()));

/** `personIds`: UUIDs, repeated in the query; a single value is accepted too (better than v1.100). */
const personIds = () =>
  optional(
    v.pipe(
      v.unknown(),
      v.transform((x: unknown) => (typeof x === 'string' ? [x] : x)),
      v.check(
        (x: unknown) => (Array.isArray(x) ? x : [x]).every((id) => typeof id === 'string' && uuidV4.test(id)),
        'each value in $property must be a UUID',
      ),
      v.check((x: unknown) => Array.isArray(x), '$property must be an array'),
      as<string[]>(),
      maxItems(limits.bulkTargets),
    ),
  );

/**
 * v1.100's flags as the one model's visibilities: `isVisible` hidden or not, `isArchived` the
 * archive or not, and without it the archive only `withArchived`; never the locked folder.
 */
const visibilitiesOf = (flags: {
  isArchived?: boolean | null;
  withArchived?: boolean | null;
  isVisible?: boolean | null;
}): AssetVisibility[] => {
  let visibilities: AssetVisibility[] = ['timeline', 'archive', 'hidden'];
  if (flags.isVisible === true) visibilities = visibilities.filter((visibility) => visibility !== 'hidden');
  if (flags.isVisible === false) visibilities = visibilities.filter((visibility) => visibility === 'hidden');
  if (flags.isArchived === true) visibilities = visibilities.filter((visibility) => visibility === 'archive');
  else if (flags.isArchived === false || flags.withArchived !== true)
    visibilities = visibilities.filter((visibility) => visibility !== 'archive');
  return visibilities;
};

/**
 * v1.100's `BaseSearchDto`: the filters the metadata search (`MetadataSearchDto`) and smart search
 * (`SmartSearchDto`) share, in its order. class-validator checks a subclass's own fields first,
 * then the inherited ones, so each DTO lists its own fields before these: their messages come in
 * v1.100's order.
 */
const baseSearchFields = {
  libraryId: optional(uuid()),
  deviceId: text(),
  type: enumOf(assetTypes),
  isArchived: optional(booleanish()),
  withArchived: optional(booleanish()),
  isEncoded: optional(booleanish()),
  isExternal: optional(booleanish()),
  isFavorite: optional(booleanish()),
  isMotion: optional(booleanish()),
  isOffline: optional(booleanish()),
  isReadOnly: optional(booleanish()),
  isVisible: optional(booleanish()),
  withDeleted: optional(booleanish()),
  withExif: optional(booleanish()),
  createdBefore: queryDate('createdBefore'),
  createdAfter: queryDate('createdAfter'),
  updatedBefore: queryDate('updatedBefore'),
  updatedAfter: queryDate('updatedAfter'),
  trashedBefore: queryDate('trashedBefore'),
  trashedAfter: queryDate('trashedAfter'),
  takenBefore: queryDate('takenBefore'),
  takenAfter: queryDate('takenAfter'),
  city: text(),
  state: text(),
  country: text(),
  make: text(),
  model: text(),
  lensModel: text(),
  page: integer(),
  size: integer(1000),
  isNotInAlbum: optional(booleanish()),
  personIds: personIds(),
};

/** GET /assets query and POST /search/metadata body (`MetadataSearchDto`), read into the model's filters. */
export const SearchAssetsDto = v.pipe(
  dto({
    id: optional(uuid()),
    deviceAssetId: text(),
    checksum: text(),
    withStacked: optional(booleanish()),
    withPeople: optional(booleanish()),
    originalFileName: text(),
    originalPath: text(),
    resizePath: text(),
    webpPath: text(),
    encodedVideoPath: text(),
    order: enumOf(['asc', 'desc'] as const),
    ...baseSearchFields,
  }),
  v.transform(({ isArchived, withArchived, isVisible, ...filters }) => ({
    ...filters,
    visibilities: visibilitiesOf({ isArchived, withArchived, isVisible }),
  })),
);
export type SearchAssetsInput = v.InferOutput<typeof SearchAssetsDto>;

/** GET /search query (`SearchDto`). */
export const SearchDto = dto({
  q: text(),
  query: text(),
  smart: optional(booleanish()),
  clip: optional(booleanish()),
  withArchived: optional(booleanish()),
  type: enumOf(assetTypes),
  recent: optional(booleanish()),
  motion: optional(booleanish()),
  page: integer(),
  size: integer(1000),
});
export type SearchInput = v.InferOutput<typeof SearchDto>;

/** `@IsInt() @Type(() => Number) @Max(max) @Min(1)`, required: class-validator reports Min, Max, IsInt. */
const dayOrMonth = (max: number) =>
  v.pipe(
    v.unknown(),
    v.transform((x: unknown) => (typeof x === 'string' || typeof x === 'number' ? Number(x) : Number.NaN)),
    v.check((x: number) => x >= 1, '$property must not be less than 1'),
    v.check((x: number) => x <= max, `$property must not be greater than ${max}`),
    v.check((x: number) => Number.isInteger(x), '$property must be an integer number'),
  );

/** `MemoryLaneDto` (GET /asset/memory-lane?day=&month=). */
export const MemoryLaneDto = dto({ day: dayOrMonth(31), month: dayOrMonth(12) });

const suggestionTypes = ['country', 'state', 'city', 'camera-make', 'camera-model', 'camera-lens-model'] as const;

/** GET /search/suggestions query (`SearchSuggestionRequestDto`, both generations': v3's `lensModel` and `includeNull` too). */
export const SearchSuggestionRequestDto = dto({
  // `@IsEnum() @IsNotEmpty()`: class-validator reports IsNotEmpty first.
  type: v.pipe(v.unknown(), rules.isNotEmpty, isOneOf(suggestionTypes), as<(typeof suggestionTypes)[number]>()),
  country: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  state: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  make: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  model: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  lensModel: optional(v.pipe(v.unknown(), rules.maxLength(limits.keyValue), rules.isString, as<string>())),
  includeNull: optional(booleanish()),
});

/** `SearchPeopleDto` (GET /search/person). */
export const SearchPeopleDto = dto({
  name: v.pipe(v.unknown(), rules.isNotEmpty, rules.isString, as<string>()),
  withHidden: optional(booleanish()),
});

/**
 * POST /search/smart (v1.100's SmartSearchDto, docs/search.md): the metadata search's filters
 * (its flags read as visibilities), `query` required, `page`, `size` 1–1000 (100 by default).
 */
export const SmartSearchDto = v.pipe(
  dto({
    query: v.pipe(v.unknown(), rules.isNotEmpty, rules.isString, as<string>()),
    ...baseSearchFields,
  }),
  v.transform(({ query, page, size, isArchived, withArchived, isVisible, ...filters }) => ({
    query,
    page: page ?? 1,
    size: size ?? 100,
    filters: { ...filters, visibilities: visibilitiesOf({ isArchived, withArchived, isVisible }) },
  })),
);

/** GET /search's smart mode (`clip` or `smart`): the query, and the archive too with `withArchived`, as v1.100's. */
export const smartOfTextSearch = (input: SearchInput) => ({
  query: input.q || input.query || undefined,
  page: input.page ?? 1,
  size: input.size ?? 100,
  filters: { visibilities: visibilitiesOf({ withArchived: input.withArchived ?? null }) },
});
