/**
 * Duplicate groups (docs/immich-compatibility.md, "Duplicates"; docs/data-model.md, patterns
 * 103–104): per owner, under `DUPLICATES#<ownerId>`, an item per group holding its `count` of
 * members, each followed by an item per member; the asset's own `duplicateId` says the same. Every
 * change of a group's members writes, in one transaction, the assets (each only while still in the
 * group it was read in), the member items, and the groups' counts (each only while still as read):
 * two changes that read a group at once cannot both win, so no group is split and no member lost.
 */
import { keys, partitions } from './keys.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, putWrite, transact, updateWrite, type Write } from './transact.ts';

/** A group as read: its count (undefined: no item for it) and its members' asset ids. */
export interface DuplicateGroup {
  id: string;
  count: number | undefined;
  assetIds: string[];
}

const groupsOf = (items: readonly Record<string, unknown>[]): DuplicateGroup[] => {
  const groups = new Map<string, DuplicateGroup>();
  const groupOf = (id: string): DuplicateGroup => {
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { id, count: undefined, assetIds: [] }));
    return group;
  };
  for (const item of items) {
    const id = String(item.duplicateId);
    if (item.type === 'duplicateGroup') groupOf(id).count = Number(item.count);
    else if (item.type === 'duplicateMember') groupOf(id).assetIds.push(String(item.assetId));
  }
  return [...groups.values()];
};

/** One group as it is now (pattern 104): its item and its members, one consistent Query. */
export const getGroup = async (ownerId: string, duplicateId: string): Promise<DuplicateGroup> =>
  groupsOf(await queryAll(partitions.duplicateGroup(ownerId, duplicateId))).find((group) => group.id === duplicateId) ?? {
    id: duplicateId,
    count: undefined,
    assetIds: [],
  };

/** Every group of an owner (pattern 103): one Query of their partition. */
export const listGroups = async (ownerId: string): Promise<DuplicateGroup[]> => groupsOf(await queryAll(partitions.duplicates(ownerId)));

export const duplicateWrites = {
  /** A group's count moved from `was` (as read; undefined: no item yet) to `now` (0: the item goes), only while it is still `was`. */
  count: (ownerId: string, duplicateId: string, was: number | undefined, now: number): Write => {
    const key = keys.duplicateGroup(ownerId, duplicateId);
    if (was === undefined) return putWrite({ ...key, type: 'duplicateGroup', duplicateId, count: now }, { condition: 'absent' });
    if (now === 0) return deleteWrite(key, { condition: '#count = :was', names: { '#count': 'count' }, values: { ':was': was } });
    return updateWrite(key, 'SET #count = :now', {
      condition: '#count = :was',
      names: { '#count': 'count' },
      values: { ':was': was, ':now': now },
    });
  },
  addMember: (ownerId: string, duplicateId: string, assetId: string): Write =>
    putWrite({ ...keys.duplicateMember(ownerId, duplicateId, assetId), type: 'duplicateMember', duplicateId, assetId }),
  removeMember: (ownerId: string, duplicateId: string, assetId: string): Write => deleteWrite(keys.duplicateMember(ownerId, duplicateId, assetId)),
};

/** Writes one change of groups; false when a condition failed (something changed meanwhile: read again). */
export const commit = async (writes: readonly Write[]): Promise<boolean> => {
  if (writes.length === 0) return true;
  try {
    await transact(writes);
    return true;
  } catch (error) {
    if (isCancelled(error)) return false;
    throw error;
  }
};
