/**
 * Duplicate groups (docs/immich-compatibility.md, "Duplicates"; docs/data-model.md, patterns
 * 103–104): per owner, under `DUPLICATES#<ownerId>`, an item per group holding its `count` of
 * members, each followed by an item per member; the asset's own `duplicateId` says the same. Every
 * change of a group's members writes, in one transaction, the assets (each only while still in the
 * group it was read in), the member items, and the groups' counts (each only while still as read):
 * two changes that read a group at once cannot both win, so no group is split and no member lost.
 */
import { randomUUID } from 'node:crypto';
import type { AssetRecord } from '../model/asset.ts';
import * as assetRepo from './asset.repository.ts';
import * as keys from './item-keys.ts';
import * as assetWrites from './items/asset-writes.ts';
import * as partitions from './partitions.ts';
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
    const group = groups.get(id) ?? { id, count: undefined, assetIds: [] };
    groups.set(id, group);
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
  removeMember: (ownerId: string, duplicateId: string, assetId: string): Write =>
    deleteWrite(keys.duplicateMember(ownerId, duplicateId, assetId)),
};

/** Writes one change of groups; false when a condition failed (something changed meanwhile: read again). */
const commit = async (writes: readonly Write[]): Promise<boolean> => {
  if (writes.length === 0) return true;
  try {
    await transact(writes);
    return true;
  } catch (error) {
    if (isCancelled(error)) return false;
    throw error;
  }
};

/**
 * The groups' counts as they are after the moves, each conditioned on its count as read; a group
 * with no item (none read) gets one only when it has members.
 */
const countWrites = (owner: string, counts: Iterable<{ group: DuplicateGroup; now: number }>): Write[] =>
  [...counts].flatMap(({ group, now }) =>
    group.count === undefined
      ? now > 0
        ? [duplicateWrites.count(owner, group.id, undefined, now)]
        : []
      : now !== group.count
        ? [duplicateWrites.count(owner, group.id, group.count, Math.max(0, now))]
        : [],
  );

/** Most writes of one transaction (DynamoDB's limit). */
const maxWrites = 100;

interface Move {
  asset: AssetRecord;
  /** Marked as looked at by this detection (itself and its neighbours: Immich's `assetIdsToUpdate`). */
  detected: boolean;
}

/**
 * One round of Immich's union rule for an asset and its neighbours as read: the writes, and
 * whether some moves were left for the next round (a transaction holds at most 100 writes).
 */
const unionWrites = async (
  asset: AssetRecord,
  neighbours: readonly AssetRecord[],
  now: string,
): Promise<{ writes: Write[]; partial: boolean }> => {
  const owner = asset.ownerId;
  const target = asset.duplicateId ?? neighbours.find((each) => each.duplicateId)?.duplicateId ?? randomUUID();
  const sourceIds = [...new Set(neighbours.flatMap((each) => (each.duplicateId && each.duplicateId !== target ? [each.duplicateId] : [])))];
  // The groups as they are now: the target's count, each source's members (whose assets move too).
  const [targetGroup, ...sources] = await Promise.all([getGroup(owner, target), ...sourceIds.map((id) => getGroup(owner, id))]);
  if (!targetGroup) throw new Error('No target group');
  const moves = new Map<string, Move>();
  if (asset.duplicateId !== target) moves.set(asset.id, { asset, detected: true });
  for (const each of neighbours) if (each.duplicateId !== target) moves.set(each.id, { asset: each, detected: true });
  const members = sources.flatMap((group) => group.assetIds.filter((id) => !moves.has(id)));
  const memberAssets = new Map((await assetRepo.getMany(members, { consistent: true })).map((each) => [each.id, each]));
  for (const id of members) {
    const found = memberAssets.get(id);
    if (found) moves.set(id, { asset: found, detected: false });
  }
  // Member items whose asset is gone, or no longer in that group: dropped with the group's count.
  const stale = sources.flatMap((group) =>
    group.assetIds.filter((id) => !moves.has(id) || moves.get(id)?.asset.duplicateId !== group.id).map((id) => ({ group, id })),
  );
  const writes: Write[] = [];
  const counts = new Map<string, { group: DuplicateGroup; now: number }>();
  const countOf = (group: DuplicateGroup) => {
    const entry = counts.get(group.id) ?? { group, now: group.count ?? 0 };
    counts.set(group.id, entry);
    return entry;
  };
  countOf(targetGroup);
  const groupsById = new Map(sources.map((group) => [group.id, group]));
  // Room for every group's count write, and for the asset's own mark when it does not move.
  const budget = maxWrites - 1 - 1 - sources.length;
  let partial = false;
  let selfMoved = false;
  for (const { group, id } of stale) {
    if (writes.length + 1 > budget) {
      partial = true;
      break;
    }
    writes.push(duplicateWrites.removeMember(owner, group.id, id));
    countOf(group).now--;
  }
  for (const { asset: each, detected } of moves.values()) {
    if (writes.length + 3 > budget) {
      partial = true;
      break;
    }
    const from = each.duplicateId ?? null;
    writes.push(assetWrites.setDuplicate(each.id, target, from, now, detected ? now : undefined));
    if (from) {
      const source = groupsById.get(from) ?? (await getGroup(owner, from));
      groupsById.set(from, source);
      if (source.assetIds.includes(each.id)) {
        writes.push(duplicateWrites.removeMember(owner, from, each.id));
        countOf(source).now--;
      }
    }
    writes.push(duplicateWrites.addMember(owner, target, each.id));
    countOf(targetGroup).now++;
    if (each.id === asset.id) selfMoved = true;
  }
  if (!selfMoved) writes.push(assetWrites.markDuplicatesDetected(asset.id, now));
  writes.push(...countWrites(owner, counts.values()));
  return { writes, partial };
};

const leaveWrites = async (asset: AssetRecord, now: string): Promise<Write[]> => {
  if (!asset.duplicateId) return [assetWrites.markDuplicatesDetected(asset.id, now)];
  const group = await getGroup(asset.ownerId, asset.duplicateId);
  const member = group.assetIds.includes(asset.id);
  return [
    assetWrites.setDuplicate(asset.id, null, asset.duplicateId, now, now),
    ...(member
      ? [
          duplicateWrites.removeMember(asset.ownerId, group.id, asset.id),
          ...countWrites(asset.ownerId, [{ group, now: (group.count ?? 0) - 1 }]),
        ]
      : []),
  ];
};

/**
 * What a change of groups came to: `done`; `more` (written, but a transaction could not hold it
 * all: go on from what is now); `changed` (a condition failed: something changed meanwhile, read again).
 */
export type GroupChange = 'done' | 'more' | 'changed';

/**
 * Immich's union rule for an asset and its neighbours as read (pattern 104): the group is its own
 * duplicateId, else a neighbour's, else a new one; every neighbour not in it and every member of
 * the neighbours' other groups join it. One transaction: each asset moved only while still in the
 * group it was read in, each member item moved, each group's count only while still as read.
 */
export const joinGroup = async (asset: AssetRecord, neighbours: readonly AssetRecord[], now: string): Promise<GroupChange> => {
  const { writes, partial } = await unionWrites(asset, neighbours, now);
  return (await commit(writes)) ? (partial ? 'more' : 'done') : 'changed';
};

/** An asset out of its group (Immich: no neighbours left), and marked as looked at. */
export const leaveGroup = async (asset: AssetRecord, now: string): Promise<GroupChange> =>
  (await commit(await leaveWrites(asset, now))) ? 'done' : 'changed';

/**
 * Takes up to 49 members of a group out of it (DELETE /duplicates; a resolved group): each asset's
 * duplicateId cleared while it is still that group's, their member items deleted, and the group's
 * count moved (its item deleted with the last) while it is as read.
 */
export const dissolvePart = async (ownerId: string, duplicateId: string): Promise<GroupChange> => {
  const group = await getGroup(ownerId, duplicateId);
  if (group.count === undefined && group.assetIds.length === 0) return 'done';
  const part = group.assetIds.slice(0, 49);
  const assets = new Map((await assetRepo.getMany(part, { consistent: true })).map((asset) => [asset.id, asset]));
  const now = new Date().toISOString();
  const writes: Write[] = part.flatMap((id) => [
    ...(assets.get(id)?.duplicateId === duplicateId ? [assetWrites.setDuplicate(id, null, duplicateId, now)] : []),
    duplicateWrites.removeMember(ownerId, duplicateId, id),
  ]);
  const left = group.assetIds.length - part.length;
  if (group.count !== undefined)
    writes.push(duplicateWrites.count(ownerId, duplicateId, group.count, left > 0 ? Math.max(1, group.count - part.length) : 0));
  if (!(await commit(writes))) return 'changed';
  return left > 0 ? 'more' : 'done';
};
