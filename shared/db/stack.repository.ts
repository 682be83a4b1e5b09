import type { AssetRecord, StackRef } from '../model/asset.ts';
import type { StackRecord } from '../model/stack.ts';
import { batchGet } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import * as assetWrites from './items/asset-writes.ts';
import { slotOf } from './items/bucket.ts';
import * as bucketWrites from './items/bucket-writes.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { stackCodec } from './items/stack.ts';
import { done, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, putWrite, transact, type Write } from './transact.ts';

/** The owner's stack, or undefined (someone else's reads as missing). */
export const get = async (ownerId: string, stackId: string): Promise<StackRecord | undefined> => {
  const item = await getItem(keys.stack(ownerId, stackId));
  return item ? stackCodec.read(item) : undefined;
};

/**
 * The owner's stacks of these ids that exist, each once, read consistently as `get` reads
 * one (BatchGetItem, 100 a call: shared/db/batch.ts).
 */
export const getMany = async (ownerId: string, stackIds: readonly string[]): Promise<StackRecord[]> =>
  (
    await batchGet(
      [...new Set(stackIds)].map((id) => keys.stack(ownerId, id)),
      { consistent: true },
    )
  ).map(stackCodec.read);

/** Every stack of an owner (Query `USER#<id>` STACK#). */
export const list = async (ownerId: string): Promise<StackRecord[]> =>
  (await queryAll(partitions.userStacks(ownerId))).map(stackCodec.read);

/**
 * A change of an owner's stacks, written as one transaction: the stacks put (new, or replacing
 * the one read), the stacks deleted, and every member whose copy of its stack changes, with the
 * timeline counters their change moves (a member other than the primary is counted apart:
 * shared/db/items/bucket.ts).
 */
export interface StackChange {
  ownerId: string;
  put: { stack: StackRecord; was?: StackRecord | undefined }[];
  remove: StackRecord[];
  members: { asset: AssetRecord; stack: StackRef | null }[];
}

/** The writes of a change. */
const stackChangeWrites = (change: StackChange): Write[] => {
  const now = new Date().toISOString();
  const { ownerId } = change;
  // Each stack only as read: a concurrent change of it cancels this one.
  const asRead = (stack: StackRecord) => ({ condition: 'updatedAt = :was', values: { ':was': stack.updatedAt } });
  return [
    ...change.put.map(({ stack, was }) =>
      putWrite({ ...keys.stack(ownerId, stack.id), type: 'stack', ...stack }, was ? asRead(was) : { condition: 'absent' }),
    ),
    ...change.remove.flatMap((stack) => [
      deleteWrite(keys.stack(ownerId, stack.id), { ...asRead(stack), sync: 'recorded' }),
      deletionWrites.stack(ownerId, stack.id),
    ]),
    // Each member only in the state it was read in (its counters move with it).
    ...change.members.map(({ asset, stack }) => assetWrites.setStack(asset, stack, now)),
    ...bucketWrites.moveAll(
      ownerId,
      change.members.map(({ asset, stack }) => [slotOf(asset), slotOf({ ...asset, stack })] as const),
    ),
  ];
};

/**
 * Writes a change (docs/data-model.md, pattern 75), or refuses it, writing nothing: `too-large` when
 * it is more than one transaction holds (100 writes), `changed` when a stack or one of its members
 * changed (or went) while the change was prepared from them (read again).
 */
export const writeChange = async (change: StackChange): Promise<Outcome<'too-large' | 'changed'>> => {
  const writes = stackChangeWrites(change);
  if (writes.length > 100) return refused('too-large');
  try {
    await transact(writes);
    return done();
  } catch (error) {
    if (isCancelled(error)) return refused('changed');
    throw error;
  }
};
