/**
 * 3.2's filter tree (shared/model/search-filter.ts) as a predicate on an asset, and the assets it
 * can only be among (the search's driver): docs/search.md, "The filter tree". The sets it needs
 * (albums', tags' and OCR text's assets) are read first by the search service; the rest is on the
 * asset. Comparisons follow SQL's: a condition on an empty field (null) holds only for `eq: null`
 * and `ne: <value>`'s opposite is false too (`NULL <> 'x'` is not true), as in Immich's query.
 */
import type { AssetRecord } from '../model/asset.ts';
import {
  branchesOf,
  type FilterBranch,
  type FilterTree,
  type IdsCondition,
  type PatternCondition,
  type RangeCondition,
  type ValueCondition,
} from '../model/search-filter.ts';
import { checksumHex, fold, likeMatcher } from './search.ts';

/** What the tree's conditions on albums, tags, OCR text and `hasTags` are read from. */
export interface TreeSets {
  /** Each named album's assets. */
  albums: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each named tag's assets, through the tag or one below it (Immich's tag closure). */
  tags: ReadonlyMap<string, ReadonlySet<string>>;
  /** Each `ocr.matches` text's assets (whose text has its every word). */
  ocr: ReadonlyMap<string, ReadonlySet<string>>;
  /** The assets with any tag (read only when the tree says `hasTags`). */
  tagged: ReadonlySet<string>;
}

type Test = (asset: AssetRecord) => boolean;

const none = new Set<string>();

/** `eq`, `ne`, `in`, `notIn` on a value that may be empty (null never equals nor differs). */
const valueTests = <T>(
  condition: ValueCondition<T> | undefined,
  read: (asset: AssetRecord) => T | null,
  same = (a: T, b: T) => a === b,
): Test[] => {
  if (!condition) return [];
  const tests: Test[] = [];
  const { eq, ne } = condition;
  const list = condition.in;
  const notIn = condition.notIn;
  if (eq === null) tests.push((asset) => read(asset) === null);
  else if (eq !== undefined) tests.push((asset) => (read(asset) ?? null) !== null && same(read(asset) as T, eq));
  if (ne === null) tests.push((asset) => read(asset) !== null);
  else if (ne !== undefined) tests.push((asset) => (read(asset) ?? null) !== null && !same(read(asset) as T, ne));
  if (list) tests.push((asset) => (read(asset) ?? null) !== null && list.some((each) => same(read(asset) as T, each)));
  if (notIn) tests.push((asset) => (read(asset) ?? null) !== null && !notIn.some((each) => same(read(asset) as T, each)));
  return tests;
};

/** A value's conditions and bounds, on numbers or instants (compared as times). */
const rangeTests = <T extends number | string>(
  condition: RangeCondition<T> | undefined,
  read: (asset: AssetRecord) => T | null,
): Test[] => {
  if (!condition) return [];
  const asNumber = (value: T): number => (typeof value === 'number' ? value : Date.parse(value));
  const number = (asset: AssetRecord): number | null => {
    const value = read(asset);
    return value === null || value === undefined ? null : asNumber(value);
  };
  const bound = (limit: T | undefined, holds: (value: number, limit: number) => boolean): Test[] =>
    limit === undefined
      ? []
      : [
          (asset) => {
            const value = number(asset);
            return value !== null && holds(value, asNumber(limit));
          },
        ];
  return [
    ...valueTests<number>(
      {
        ...(condition.eq === undefined ? {} : { eq: condition.eq === null ? null : asNumber(condition.eq) }),
        ...(condition.ne === undefined ? {} : { ne: condition.ne === null ? null : asNumber(condition.ne) }),
        ...(condition.in ? { in: condition.in.map(asNumber) } : {}),
        ...(condition.notIn ? { notIn: condition.notIn.map(asNumber) } : {}),
      },
      number,
    ),
    ...bound(condition.gt, (value, limit) => value > limit),
    ...bound(condition.gte, (value, limit) => value >= limit),
    ...bound(condition.lt, (value, limit) => value < limit),
    ...bound(condition.lte, (value, limit) => value <= limit),
  ];
};

/** Text: exact (`eq`, `in`…), or a part of it, case- and accent-insensitive (`like` with Immich's wildcards). */
const patternTests = (condition: PatternCondition | undefined, read: (asset: AssetRecord) => string | null): Test[] => {
  if (!condition) return [];
  const tests = valueTests(condition, read);
  const present =
    (test: (text: string) => boolean): Test =>
    (asset) => {
      const text = read(asset);
      return text !== null && test(text);
    };
  if (condition.like !== undefined) tests.push(present(likeMatcher(condition.like)));
  if (condition.notLike !== undefined) {
    const matches = likeMatcher(condition.notLike);
    tests.push(present((text) => !matches(text)));
  }
  const { startsWith, endsWith } = condition;
  if (startsWith !== undefined) tests.push(present((text) => fold(text).startsWith(fold(startsWith))));
  if (endsWith !== undefined) tests.push(present((text) => fold(text).endsWith(fold(endsWith))));
  return tests;
};

/** Albums, people or tags: `any` of them, `all` of them, `none` of them. */
const idsTests = (condition: IdsCondition | undefined, has: (asset: AssetRecord, id: string) => boolean): Test[] => {
  if (!condition) return [];
  const tests: Test[] = [];
  const { any, all } = condition;
  const noneOf = condition.none;
  if (any) tests.push((asset) => any.some((id) => has(asset, id)));
  if (all) tests.push((asset) => all.every((id) => has(asset, id)));
  if (noneOf) tests.push((asset) => !noneOf.some((id) => has(asset, id)));
  return tests;
};

const flag = (condition: { eq: boolean } | undefined, read: (asset: AssetRecord) => boolean): Test[] =>
  condition ? [(asset) => read(asset) === condition.eq] : [];

const branchTests = (branch: FilterBranch, sets: TreeSets): Test[] => {
  const inSet = (map: ReadonlyMap<string, ReadonlySet<string>>) => (asset: AssetRecord, id: string) => (map.get(id) ?? none).has(asset.id);
  const ocr = branch.ocr;
  return [
    ...valueTests(branch.id, (asset) => asset.id),
    ...valueTests(branch.libraryId, (asset) => asset.libraryId),
    ...valueTests(branch.type, (asset) => asset.type),
    ...valueTests(branch.visibility, (asset) => asset.visibility),
    ...flag(branch.isFavorite, (asset) => asset.isFavorite),
    ...flag(branch.isOffline, (asset) => asset.isOffline),
    ...flag(branch.isMotion, (asset) => asset.livePhotoVideoId !== null),
    ...flag(branch.isEncoded, (asset) => asset.encodedVideoPath !== undefined),
    ...flag(branch.hasAlbums, (asset) => asset.albumCount > 0),
    ...flag(branch.hasPeople, (asset) => asset.faceIds.length > 0 || asset.personIds.length > 0),
    ...flag(branch.hasTags, (asset) => sets.tagged.has(asset.id)),
    ...(['city', 'state', 'country', 'make', 'model', 'lensModel'] as const).flatMap((key) =>
      valueTests(branch[key], (asset) => asset.exif[key] ?? null),
    ),
    ...patternTests(branch.description, (asset) => asset.exif.description ?? null),
    ...patternTests(branch.originalFileName, (asset) => asset.originalFileName),
    ...patternTests(branch.originalPath, (asset) => asset.originalPath),
    ...(ocr ? [(asset: AssetRecord) => (sets.ocr.get(ocr.matches) ?? none).has(asset.id)] : []),
    ...rangeTests(branch.rating, (asset) => asset.exif.rating ?? null),
    ...rangeTests(branch.fileSizeInBytes, (asset) => asset.exif.fileSizeInByte ?? null),
    ...rangeTests(branch.takenAt, (asset) => asset.fileCreatedAt),
    ...rangeTests(branch.createdAt, (asset) => asset.createdAt),
    ...rangeTests(branch.updatedAt, (asset) => asset.updatedAt),
    ...rangeTests(branch.trashedAt, (asset) => asset.deletedAt),
    ...idsTests(branch.albumIds, inSet(sets.albums)),
    ...idsTests(branch.personIds, (asset, id) => asset.personIds.includes(id)),
    ...idsTests(branch.tagIds, inSet(sets.tags)),
    ...valueTests(
      branch.checksum,
      (asset) => asset.checksum,
      (stored, given) => stored === checksumHex(given),
    ),
    ...valueTests(branch.encodedVideoPath, (asset) => asset.encodedVideoPath ?? null),
  ];
};

/** The tree as one test: every condition of the top level, and (with `or`) every condition of one of its branches. */
export const compileTree = (tree: FilterTree, sets: TreeSets): Test => {
  const top = branchTests(tree, sets);
  const branches = (tree.or ?? []).map((branch) => branchTests(branch, sets));
  return (asset) =>
    top.every((test) => test(asset)) && (branches.length === 0 || branches.some((tests) => tests.every((test) => test(asset))));
};

const intersect = (sets: readonly ReadonlySet<string>[]): Set<string> | undefined => {
  const [first, ...rest] = [...sets].sort((a, b) => a.size - b.size);
  return first ? new Set([...first].filter((id) => rest.every((set) => set.has(id)))) : undefined;
};

/** The assets a branch can only be among, from its conditions that name a set (undefined: any asset). */
const branchCandidates = (branch: FilterBranch, sets: TreeSets): Set<string> | undefined => {
  const of = (map: ReadonlyMap<string, ReadonlySet<string>>, id: string) => map.get(id) ?? none;
  const found: ReadonlySet<string>[] = [];
  for (const [key, map] of [
    ['albumIds', sets.albums],
    ['tagIds', sets.tags],
  ] as const) {
    const condition = branch[key];
    if (condition?.any) found.push(new Set(condition.any.flatMap((id) => [...of(map, id)])));
    for (const id of condition?.all ?? []) found.push(of(map, id));
  }
  if (branch.ocr) found.push(of(sets.ocr, branch.ocr.matches));
  if (branch.id?.eq) found.push(new Set([branch.id.eq]));
  return intersect(found);
};

/**
 * The assets the tree can only be among, read by key instead of walking the timeline: those of
 * the top level's set conditions, within the union of the branches' when every branch has one.
 * Undefined when neither narrows (the search then walks an index: docs/search.md).
 */
export const treeCandidates = (tree: FilterTree, sets: TreeSets): Set<string> | undefined => {
  const found: Set<string>[] = [];
  const top = branchCandidates(tree, sets);
  if (top) found.push(top);
  if (tree.or && tree.or.length > 0) {
    const each = tree.or.map((branch) => branchCandidates(branch, sets));
    if (each.every((set) => set !== undefined)) found.push(new Set(each.flatMap((set) => [...(set as Set<string>)])));
  }
  return intersect(found);
};

/** Whether any level of the tree has a condition on this field. */
export const treeNames = (tree: FilterTree, key: keyof FilterBranch): boolean =>
  branchesOf(tree).some((branch) => branch[key] !== undefined);
