/**
 * Immich 3.2's search filter tree (`filter` of MetadataSearchDto, RandomSearchDto and
 * SmartSearchDto in @immich/sdk 3.2.2): the conditions of the top level and, with `or`, at least
 * one of its branches. A branch is the same conditions without `or`, so a tree is two levels deep
 * at most. Every condition of a level must hold (and); a condition's own fields must all hold too
 * (`{gte, lt}` is a range). Negation is in the conditions: `ne`, `notIn`, `none`, `notLike`,
 * `{eq: false}`. Served as docs/search.md, "The filter tree", says.
 */

type Maybe<T> = T | null;

/** Albums, people, tags: at least one of `any`, all of `all`, none of `none` (each a list of ids). */
export interface IdsCondition {
  any?: string[] | undefined;
  all?: string[] | undefined;
  none?: string[] | undefined;
}

/** An id: equal to, or not. `null` (where the field may be empty): empty, or set. */
export interface IdCondition {
  eq?: Maybe<string> | undefined;
  ne?: Maybe<string> | undefined;
}

/** A value: equal, not equal, among, not among. `null`: empty, or set. */
export interface ValueCondition<T> {
  eq?: Maybe<T> | undefined;
  ne?: Maybe<T> | undefined;
  in?: T[] | undefined;
  notIn?: T[] | undefined;
}

/** Text: a value's conditions and parts of it (case- and accent-insensitive; `%` and `_` wildcards in `like`). */
export interface PatternCondition extends ValueCondition<string> {
  like?: string | undefined;
  notLike?: string | undefined;
  startsWith?: string | undefined;
  endsWith?: string | undefined;
}

/** A number or an instant (ISO text): a value's conditions and bounds. */
export interface RangeCondition<T extends number | string> extends ValueCondition<T> {
  gt?: T | undefined;
  gte?: T | undefined;
  lt?: T | undefined;
  lte?: T | undefined;
}

export interface BoolCondition {
  eq: boolean;
}

export interface FilterBranch {
  id?: IdCondition | undefined;
  libraryId?: IdCondition | undefined;
  type?: ValueCondition<'IMAGE' | 'VIDEO' | 'AUDIO' | 'OTHER'> | undefined;
  visibility?: ValueCondition<'archive' | 'timeline' | 'hidden' | 'locked'> | undefined;
  isFavorite?: BoolCondition | undefined;
  isMotion?: BoolCondition | undefined;
  isOffline?: BoolCondition | undefined;
  isEncoded?: BoolCondition | undefined;
  hasAlbums?: BoolCondition | undefined;
  hasPeople?: BoolCondition | undefined;
  hasTags?: BoolCondition | undefined;
  city?: ValueCondition<string> | undefined;
  state?: ValueCondition<string> | undefined;
  country?: ValueCondition<string> | undefined;
  make?: ValueCondition<string> | undefined;
  model?: ValueCondition<string> | undefined;
  lensModel?: ValueCondition<string> | undefined;
  description?: PatternCondition | undefined;
  originalFileName?: PatternCondition | undefined;
  originalPath?: PatternCondition | undefined;
  /** The asset's text (OCR) has every word of `matches`. */
  ocr?: { matches: string } | undefined;
  rating?: RangeCondition<number> | undefined;
  fileSizeInBytes?: RangeCondition<number> | undefined;
  takenAt?: RangeCondition<string> | undefined;
  createdAt?: RangeCondition<string> | undefined;
  updatedAt?: RangeCondition<string> | undefined;
  trashedAt?: RangeCondition<string> | undefined;
  albumIds?: IdsCondition | undefined;
  personIds?: IdsCondition | undefined;
  tagIds?: IdsCondition | undefined;
  checksum?: ValueCondition<string> | undefined;
  encodedVideoPath?: ValueCondition<string> | undefined;
}

export interface FilterTree extends FilterBranch {
  or?: FilterBranch[] | undefined;
}

/** The top level, then each branch of its `or`. */
export const branchesOf = (tree: FilterTree): FilterBranch[] => [tree, ...(tree.or ?? [])];

/** The ids of one kind the tree names anywhere. */
export const idsNamed = (tree: FilterTree, key: 'albumIds' | 'personIds' | 'tagIds'): string[] => [
  ...new Set(
    branchesOf(tree).flatMap((branch) => [...(branch[key]?.any ?? []), ...(branch[key]?.all ?? []), ...(branch[key]?.none ?? [])]),
  ),
];
