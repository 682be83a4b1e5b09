/**
 * Immich v3.2's search requests (`@immich/sdk` 3.2.2: MetadataSearchDto, RandomSearchDto) read into
 * the one search's filters (shared/domain/search.ts), and its answers.
 */
import * as v from 'valibot';
import { type CityAsset, peopleOfFaces, type SearchHit } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import type { SearchFilters } from '../../model/search.ts';
import { type AssetResponseDto, mapAssetV3 } from './asset.response.ts';
import { boolean, coercedInteger, integer, isoDateTime, object, picklist, stringToBool, text, uuid, uuidsUpTo } from './common.ts';

const optionalText = v.optional(text(limits.keyValue));
const nullableText = v.optional(v.nullable(text(limits.keyValue)));

/** The filters both POST /search/metadata and POST /search/random take. */
const filterFields = {
  albumIds: v.optional(uuidsUpTo(limits.bulkTargets)),
  city: nullableText,
  country: nullableText,
  state: nullableText,
  make: nullableText,
  model: nullableText,
  lensModel: nullableText,
  createdAfter: v.optional(isoDateTime),
  createdBefore: v.optional(isoDateTime),
  takenAfter: v.optional(isoDateTime),
  takenBefore: v.optional(isoDateTime),
  trashedAfter: v.optional(isoDateTime),
  trashedBefore: v.optional(isoDateTime),
  updatedAfter: v.optional(isoDateTime),
  updatedBefore: v.optional(isoDateTime),
  isEncoded: v.optional(boolean),
  isFavorite: v.optional(boolean),
  isMotion: v.optional(boolean),
  isNotInAlbum: v.optional(boolean),
  isOffline: v.optional(boolean),
  libraryId: v.optional(v.nullable(uuid)),
  personIds: v.optional(uuidsUpTo(limits.bulkTargets)),
  rating: v.optional(
    v.nullable(
      v.pipe(
        integer(-1, 5),
        v.check((x) => x !== 0, '$property must be -1 or between 1 and 5'),
      ),
    ),
  ),
  tagIds: v.optional(v.nullable(uuidsUpTo(limits.bulkTargets))),
  ocr: optionalText,
  type: v.optional(picklist(['IMAGE', 'VIDEO', 'AUDIO', 'OTHER'] as const)),
  // `locked`: the locked folder, in a session unlocked with the PIN code (docs/immich-compatibility.md).
  visibility: v.optional(picklist(['archive', 'timeline', 'hidden', 'locked'] as const)),
  withDeleted: v.optional(boolean),
  withExif: v.optional(boolean),
  withPeople: v.optional(boolean),
  withStacked: v.optional(boolean),
  size: v.optional(integer(1, 1000)),
  // 3.2's filter language: not served yet.
  filter: v.optional(
    v.pipe(
      v.unknown(),
      v.check(() => false, 'filter is not supported by this server yet'),
    ),
  ),
};

const metadataFields = {
  ...filterFields,
  checksum: optionalText,
  id: v.optional(uuid),
  deviceAssetId: optionalText,
  deviceId: optionalText,
  description: v.optional(text(limits.description)),
  encodedVideoPath: optionalText,
  originalFileName: optionalText,
  originalPath: optionalText,
  previewPath: optionalText,
  thumbnailPath: optionalText,
  order: v.optional(picklist(['asc', 'desc'] as const)),
  orderBy: v.optional(picklist(['takenAt'] as const)),
  page: v.optional(integer(1)),
  cursor: v.optional(
    v.pipe(
      v.unknown(),
      v.check(() => false, 'cursor is not supported by this server yet'),
    ),
  ),
};

type FilterInput = v.InferOutput<v.ObjectSchema<typeof filterFields, undefined>>;

/**
 * v3's visibility as the model's visibilities (the one named, or the timeline and the archive by
 * default), null exif values as no filter, OCR text as nothing to match.
 */
const toFilters = ({ visibility, ocr, filter: _filter, ...input }: FilterInput & Record<string, unknown>): SearchFilters => {
  const nulls = Object.fromEntries(Object.entries(input).map(([key, value]) => [key, value === null ? undefined : value]));
  return {
    ...nulls,
    visibilities: visibility === undefined ? ['timeline', 'archive'] : [visibility],
    ...(ocr ? { matchesNothing: true } : {}),
  } as SearchFilters;
};

export const MetadataSearchDtoV3 = v.pipe(object(metadataFields), v.transform(toFilters));

/**
 * POST /search/large-assets: its filters come in the query (`?minFileSize=0` from the web app's
 * Large files page), so they are read from text; `size` 250 by default.
 */
export const LargeAssetSearchDto = v.pipe(
  object({
    minFileSize: v.optional(coercedInteger(0)),
    size: v.optional(coercedInteger(1, 1000)),
    visibility: v.optional(picklist(['archive', 'timeline', 'hidden', 'locked'] as const)),
    isFavorite: v.optional(stringToBool),
    isMotion: v.optional(stringToBool),
    isNotInAlbum: v.optional(stringToBool),
    withDeleted: v.optional(stringToBool),
    withExif: v.optional(stringToBool),
    takenAfter: v.optional(isoDateTime),
    takenBefore: v.optional(isoDateTime),
    city: optionalText,
    state: optionalText,
    country: optionalText,
    make: optionalText,
    model: optionalText,
    lensModel: optionalText,
  }),
  v.transform(({ minFileSize, size, withExif, ...filters }) => ({
    minFileSize: minFileSize ?? 0,
    size: size ?? 250,
    // Immich answers them with their EXIF (the page shows each file's size) unless told not to.
    withExif: withExif !== false,
    filters: toFilters(filters),
  })),
);

/** POST /search/random: `size` of the matches, at random (250 by default). */
export const RandomSearchDtoV3 = v.pipe(object(filterFields), v.transform(toFilters));

/** Whether a POST /search/metadata body is v3's: v3's clients always send `visibility` (v1.100 has none), or a field only v3 has. */
export const isV3Search = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  ['visibility', 'albumIds', 'tagIds', 'rating', 'ocr', 'description', 'filter', 'cursor', 'orderBy', 'previewPath', 'thumbnailPath'].some(
    (key) => key in body,
  );

export interface SearchResponseDtoV3 {
  albums: { total: number; count: number; items: unknown[]; facets: unknown[] };
  assets: { total: number; count: number; items: AssetResponseDto[]; facets: unknown[]; nextPage: string | null; nextCursor: null };
}

/** v3's answer: the page's assets (EXIF when asked, people when loaded), no album results, page numbers (no cursor). */
export const mapSearchV3 = (
  hits: readonly SearchHit[],
  callerId: string,
  withExif: boolean,
  nextPage: string | null,
): SearchResponseDtoV3 => {
  const items = hits.map((hit) =>
    mapAssetV3(hit.asset, {
      callerId,
      withExif,
      ...(hit.people ? { people: peopleOfFaces(hit.faces ?? []).flatMap((id) => hit.people?.get(id) ?? []) } : {}),
    }),
  );
  return {
    albums: { total: 0, count: 0, items: [], facets: [] },
    assets: { total: items.length, count: items.length, items, facets: [], nextPage, nextCursor: null },
  };
};

export interface SearchExploreResponseDtoV3 {
  fieldName: string;
  items: { value: string; data: AssetResponseDto }[];
}

export const mapExploreV3 = (cities: readonly CityAsset[], callerId: string): SearchExploreResponseDtoV3[] => [
  {
    fieldName: 'exifInfo.city',
    items: cities.map(({ city, asset }) => ({ value: city, data: mapAssetV3(asset, { callerId, withExif: true }) })),
  },
  { fieldName: 'smartInfo.tags', items: [] },
];

/**
 * POST /search/smart (v3's SmartSearchDto, docs/search.md): every filter the metadata search's
 * random sibling takes, the text `query` (or `queryAssetId`, whose embedding is the query), its
 * `language`, `page` from 1 and `size` 1–1000 (100 by default).
 */
export const SmartSearchDtoV3 = v.pipe(
  object({
    ...filterFields,
    query: v.optional(text(limits.keyValue)),
    queryAssetId: v.optional(uuid),
    language: optionalText,
    page: v.optional(integer(1)),
  }),
  v.transform(({ query, queryAssetId, language, page, ...filters }) => ({
    query,
    queryAssetId,
    language,
    page: page ?? 1,
    size: filters.size ?? 100,
    filters: toFilters(filters),
  })),
);
