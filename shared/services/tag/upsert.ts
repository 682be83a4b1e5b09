/**
 * Immich's `upsertTags` (server/src/utils/tag.ts): every path's tags made where missing, parents
 * first, one tag a value and owner (the value's guard item, a conditional put: two requests that
 * make the same tag at once make one), for PUT /tags, v1.100's POST /tag and the keywords read
 * from files (docs/immich-compatibility.md, "Tags"). The paths' levels are made a level at a
 * time, many tags a transaction, so the round trips grow with the paths' depth, not their number
 * (docs/data-model.md, pattern 70).
 */
import { randomUUID } from 'node:crypto';
import { inBatches } from '../../core/concurrency.ts';
import * as tagRepo from '../../db/tag.repository.ts';
import { type TagRecord, tagPath } from '../../model/tag.ts';

export const newTag = (ownerId: string, value: string, fields: Partial<Pick<TagRecord, 'parentId' | 'color' | 'type'>> = {}): TagRecord => {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    ownerId,
    value,
    parentId: fields.parentId ?? null,
    color: fields.color ?? null,
    type: fields.type ?? 'CUSTOM',
    createdAt: now,
    updatedAt: now,
  };
};

/** New tags a transaction (two writes each: the tag and its value's guard, of DynamoDB's 100). */
const tagsPerTransaction = 50;
/** `items` in runs of `size`. */
const runsOf = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/** Transactions (or parent updates) of one level in flight at once. */
const inFlight = 4;

/**
 * Immich's `upsertValue`: the owner's tag of this value, made if missing; an existing one gets
 * this parent (as Immich's upsert sets it). A tag made concurrently by another request is read.
 * `known`: the tag as already read (undefined: none was found then).
 */
const upsertValue = async (ownerId: string, value: string, parentId: string | null, known?: TagRecord): Promise<TagRecord> => {
  let existing = known;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) existing = await tagRepo.getByValue(ownerId, value);
    if (existing) {
      if (existing.parentId === parentId) return existing;
      const moved = await tagRepo.update(existing, { parentId });
      if (moved.ok) return moved.value;
      throw new Error(`Tag ${value} was deleted while it was moved`);
    }
    const tag = newTag(ownerId, value, { parentId });
    if ((await tagRepo.create(tag)).ok) return tag;
  }
  throw new Error(`Tag ${value} kept changing while it was made`);
};

/** Each level's values (the paths' prefixes of that many parts), each with the value of its parent. */
const levelsOf = (paths: readonly string[]): Map<string, string | null>[] => {
  const levels: Map<string, string | null>[] = [];
  for (const path of paths) {
    let parent: string | null = null;
    tagPath(path).forEach((part, depth) => {
      const value: string = parent === null ? part : `${parent}/${part}`;
      const level = levels[depth] ?? new Map<string, string | null>();
      levels[depth] = level;
      level.set(value, parent);
      parent = value;
    });
  }
  return levels;
};

/** How many tags (each level of each path counting, each value once) making these paths may touch. */
export const tagsOfPaths = (paths: readonly string[]): number => levelsOf([...new Set(paths)]).reduce((sum, level) => sum + level.size, 0);

/**
 * Each path's tags, parents first (Immich's `upsertTags`); the leaf of each, in the order asked
 * (a path asked twice, once; an empty one, none). The tags already there are read at once (every
 * level of every path); then, a level at a time, the missing ones are made, 50 a transaction and
 * a few transactions at once, and those under another parent moved. A transaction cancelled by a
 * tag made meanwhile by another request is done again tag by tag, reading that one. The paths are
 * checked by the callers (`tagPathProblem`).
 */
export const upsertTagPaths = async (ownerId: string, paths: readonly string[]): Promise<TagRecord[]> => {
  const unique = [...new Set(paths)];
  const levels = levelsOf(unique);
  const known = await tagRepo.getManyByValues(
    ownerId,
    levels.flatMap((level) => [...level.keys()]),
  );
  for (const level of levels) {
    const missing: TagRecord[] = [];
    const moved: { tag: TagRecord; parentId: string | null }[] = [];
    for (const [value, parentValue] of level) {
      const parentId = parentValue === null ? null : (known.get(parentValue)?.id ?? null);
      const found = known.get(value);
      if (!found) missing.push(newTag(ownerId, value, { parentId }));
      else if (found.parentId !== parentId) moved.push({ tag: found, parentId });
    }
    await inBatches(runsOf(missing, tagsPerTransaction), inFlight, async (part) => {
      if ((await tagRepo.createMany(part)).ok) for (const tag of part) known.set(tag.value, tag);
      else for (const tag of part) known.set(tag.value, await upsertValue(ownerId, tag.value, tag.parentId));
    });
    await inBatches(moved, inFlight, async ({ tag, parentId }) => {
      known.set(tag.value, await upsertValue(ownerId, tag.value, parentId, tag));
    });
  }
  return unique.flatMap((path) => known.get(tagPath(path).join('/')) ?? []);
};
