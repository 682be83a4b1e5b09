/**
 * Immich v3.2's search requests (`@immich/sdk` 3.2.2: MetadataSearchDto, RandomSearchDto) read into
 * the one search's filters (shared/domain/search.ts), and its answers.
 */
import * as v from 'valibot';
import { type CityAsset, peopleOfFaces, type SearchHit } from '../../model/asset.ts';
import { limits } from '../../model/limits.ts';
import type { SearchFilters } from '../../model/search.ts';
import { branchesOf, type FilterTree, idsNamed } from '../../model/search-filter.ts';
import { type AssetResponseDto, mapAssetV3 } from './asset.response.ts';
import { boolean, coercedInteger, integer, isoDateTime, object, picklist, stringToBool, text, upTo, uuid, uuidsUpTo } from './common.ts';

const optionalText = v.optional(text(limits.keyValue));
const nullableText = v.optional(v.nullable(text(limits.keyValue)));

/** The place and camera filters (EXIF text), each read by `schema`. */
const exifTextFields = <S extends v.GenericSchema>(schema: S) => ({
  city: schema,
  country: schema,
  state: schema,
  make: schema,
  model: schema,
  lensModel: schema,
});

/**
 * 3.2's filter tree (`filter`: shared/model/search-filter.ts, docs/search.md "The filter tree"), as
 * @immich/sdk 3.2.2 types it: a level's conditions, and `or` (1–20 branches of conditions). A
 * condition object needs one field at least (Immich's nonEmptyPartial); unlike Immich's, a key it
 * does not know is refused, not dropped (a misspelt condition would widen the search unseen). At
 * most `limits.bulkTargets` album, person and tag ids in the whole tree, 100 values a list.
 */
const maxBranches = 20;
const maxListed = 100;

const condition = <const E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    v.strictObject(entries, (issue) => (issue.expected === 'never' ? '$property is not a known condition' : '$property must be an object')),
    v.check(
      (x) => Object.values(x).some((value) => value !== undefined),
      `$property must have at least one of: ${Object.keys(entries).join(', ')}`,
    ),
  );

const listOf = <S extends v.GenericSchema>(item: S) =>
  v.optional(upTo(maxListed, v.pipe(v.array(item, '$property must be an array'), v.minLength(1, '$property must not be empty'))));

const someText = v.pipe(text(limits.keyValue), v.minLength(1, '$property must not be empty'));
const finite = v.pipe(v.number('$property must be a number'), v.finite('$property must be a number'));

const idsCondition = condition({ any: listOf(uuid), all: listOf(uuid), none: listOf(uuid) });
const idCondition = (nullable: boolean) =>
  condition({
    eq: v.optional(nullable ? v.nullable(uuid) : uuid),
    ne: v.optional(nullable ? v.nullable(uuid) : uuid),
  });
const valueEntries = <S extends v.GenericSchema>(item: S, nullable: boolean) => ({
  eq: v.optional(nullable ? v.nullable(item) : item),
  ne: v.optional(nullable ? v.nullable(item) : item),
  in: listOf(item),
  notIn: listOf(item),
});
const rangeEntries = <S extends v.GenericSchema>(item: S, nullable: boolean) => ({
  ...valueEntries(item, nullable),
  gt: v.optional(item),
  gte: v.optional(item),
  lt: v.optional(item),
  lte: v.optional(item),
});
const stringCondition = (nullable: boolean) => condition(valueEntries(text(limits.keyValue), nullable));
const patternCondition = condition({
  ...valueEntries(text(limits.keyValue), true),
  like: v.optional(someText),
  notLike: v.optional(someText),
  startsWith: v.optional(someText),
  endsWith: v.optional(someText),
});
const boolCondition = v.strictObject({ eq: boolean }, (issue) =>
  issue.expected === 'never' ? '$property is not a known condition' : '$property must be an object',
);
const enumCondition = <const T extends readonly string[]>(values: T) => condition(valueEntries(picklist(values), false));

const branchEntries = {
  id: v.optional(idCondition(false)),
  libraryId: v.optional(idCondition(true)),
  type: v.optional(enumCondition(['IMAGE', 'VIDEO', 'AUDIO', 'OTHER'] as const)),
  visibility: v.optional(enumCondition(['archive', 'timeline', 'hidden', 'locked'] as const)),
  isFavorite: v.optional(boolCondition),
  isMotion: v.optional(boolCondition),
  isOffline: v.optional(boolCondition),
  isEncoded: v.optional(boolCondition),
  hasAlbums: v.optional(boolCondition),
  hasPeople: v.optional(boolCondition),
  hasTags: v.optional(boolCondition),
  city: v.optional(stringCondition(true)),
  state: v.optional(stringCondition(true)),
  country: v.optional(stringCondition(true)),
  make: v.optional(stringCondition(true)),
  model: v.optional(stringCondition(true)),
  lensModel: v.optional(stringCondition(true)),
  description: v.optional(patternCondition),
  originalFileName: v.optional(patternCondition),
  originalPath: v.optional(patternCondition),
  ocr: v.optional(
    v.strictObject({ matches: someText }, (issue) =>
      issue.expected === 'never' ? '$property is not a known condition' : '$property must be an object',
    ),
  ),
  rating: v.optional(condition(rangeEntries(finite, true))),
  fileSizeInBytes: v.optional(condition(rangeEntries(finite, false))),
  takenAt: v.optional(condition(rangeEntries(isoDateTime, false))),
  createdAt: v.optional(condition(rangeEntries(isoDateTime, false))),
  updatedAt: v.optional(condition(rangeEntries(isoDateTime, false))),
  trashedAt: v.optional(condition(rangeEntries(isoDateTime, true))),
  personIds: v.optional(idsCondition),
  tagIds: v.optional(idsCondition),
  albumIds: v.optional(idsCondition),
  checksum: v.optional(stringCondition(false)),
  encodedVideoPath: v.optional(stringCondition(false)),
};
const treeIssue = (issue: { expected: string | null }) =>
  issue.expected === 'never' ? '$property is not a known condition' : '$property must be an object';
const filterBranch = v.strictObject(branchEntries, treeIssue);
const filterTree = v.pipe(
  v.strictObject(
    {
      ...branchEntries,
      or: v.optional(
        upTo(maxBranches, v.pipe(v.array(filterBranch, '$property must be an array'), v.minLength(1, '$property must not be empty'))),
      ),
    },
    treeIssue,
  ),
  v.check(
    (tree) =>
      (['albumIds', 'personIds', 'tagIds'] as const).reduce((sum, key) => sum + idsNamed(tree as FilterTree, key).length, 0) <=
      limits.bulkTargets,
    `$property must name at most ${limits.bulkTargets} albums, people and tags`,
  ),
  v.transform((tree) => tree as FilterTree),
);

/** Whether a level of the tree may hold locked assets by naming the locked folder (which needs an unlocked session). */
const namesLocked = (tree: FilterTree): boolean =>
  branchesOf(tree).some((branch) => branch.visibility?.eq === 'locked' || (branch.visibility?.in ?? []).includes('locked'));

/** The filters both POST /search/metadata and POST /search/random take. */
const filterFields = {
  albumIds: v.optional(uuidsUpTo(limits.bulkTargets)),
  ...exifTextFields(nullableText),
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
  // 3.2's filter tree (docs/search.md, "The filter tree").
  filter: v.optional(filterTree),
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
 * default; with a tree that has visibility conditions and no flat `visibility`, every visibility
 * the tree may pick, the locked folder only when it names it), null exif values as no filter, OCR
 * text as the words to find, the filter tree as is (a tree with trash conditions reads the trash).
 */
const toFilters = ({ visibility, ocr, filter, ...input }: FilterInput & Record<string, unknown>): SearchFilters => {
  const nulls = Object.fromEntries(Object.entries(input).map(([key, value]) => [key, value === null ? undefined : value]));
  const treeVisibility = filter !== undefined && branchesOf(filter).some((branch) => branch.visibility !== undefined);
  const visibilities =
    visibility !== undefined
      ? [visibility]
      : treeVisibility && filter
        ? ['timeline', 'archive', 'hidden', ...(namesLocked(filter) ? ['locked'] : [])]
        : ['timeline', 'archive'];
  const readsTrash = filter !== undefined && branchesOf(filter).some((branch) => branch.trashedAt !== undefined);
  return {
    ...nulls,
    visibilities,
    ...(typeof ocr === 'string' && ocr !== '' ? { ocr } : {}),
    ...(filter ? { tree: filter } : {}),
    ...(readsTrash && nulls.withDeleted === undefined ? { withDeleted: true } : {}),
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
    ...exifTextFields(optionalText),
    ocr: optionalText,
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
