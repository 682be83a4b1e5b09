/**
 * Immich's `upsertTags` (server/src/utils/tag.ts): every path's tags made where missing, parents
 * first, one tag a value and owner (the value's guard item, a conditional put: two requests that
 * make the same tag at once make one), for PUT /tags, v1.100's POST /tag and the keywords read
 * from files (docs/immich-compatibility.md, "Tags").
 */
import { randomUUID } from 'node:crypto';
import { getTagByValue, getTagsByValues, createTag as storeTag, TagValueTakenError, updateTag as writeTag } from '../db/tag.repository.ts';
import { type TagRecord, tagPath } from '../model/tag.ts';

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

/**
 * Immich's `upsertValue`: the owner's tag of this value, made if missing; an existing one gets
 * this parent (as Immich's upsert sets it). A tag made concurrently by another request is read.
 * `known`: the tag as already read (undefined: none was found then).
 */
const upsertValue = async (ownerId: string, value: string, parentId: string | null, known?: TagRecord): Promise<TagRecord> => {
  let existing = known;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) existing = await getTagByValue(ownerId, value);
    if (existing) return existing.parentId === parentId ? existing : writeTag(existing, { parentId });
    const tag = newTag(ownerId, value, { parentId });
    try {
      await storeTag(tag);
      return tag;
    } catch (error) {
      if (!(error instanceof TagValueTakenError)) throw error;
    }
  }
  throw new Error(`Tag ${value} kept changing while it was made`);
};

/**
 * Each path's tags, parents first (Immich's `upsertTags`); the leaf of each, in the order asked
 * (a path asked twice, once). The tags already there are read at once (every level of every
 * path); only those missing are made, one at a time, parent before child.
 */
export const upsertTagPaths = async (ownerId: string, paths: readonly string[]): Promise<TagRecord[]> => {
  const unique = [...new Set(paths)];
  const values = unique.flatMap((path) => tagPath(path).map((_, index, parts) => parts.slice(0, index + 1).join('/')));
  const known = await getTagsByValues(ownerId, values);
  const leaves: TagRecord[] = [];
  for (const path of unique) {
    let parent: TagRecord | undefined;
    for (const part of tagPath(path)) {
      const value = parent ? `${parent.value}/${part}` : part;
      const parentId = parent?.id ?? null;
      const found = known.get(value);
      parent = found && found.parentId === parentId ? found : await upsertValue(ownerId, value, parentId, found);
      known.set(value, parent);
    }
    if (parent) leaves.push(parent);
  }
  return leaves;
};
