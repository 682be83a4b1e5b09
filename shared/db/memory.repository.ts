import type { MemoryRecord } from '../model/memory.ts';
import { batchDelete, batchGet, chunk } from './batch.ts';
import { getItem } from './get.ts';
import * as indexKeys from './index-keys.ts';
import * as keys from './item-keys.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import { memoryCodec } from './items/memory.ts';
import { done, doneWith, type Outcome, refused } from './outcome.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { deleteWrite, isCancelled, putWrite, setFields, transact, tryTransact, tryWriteOne, updateWrite, type Write } from './transact.ts';

const memoryItem = ({ type, ...memory }: MemoryRecord) => ({
  ...keys.memory(memory.ownerId, memory.id),
  type: 'memory',
  memoryType: type,
  ...memory,
});

const memoryAssetItem = (memory: Pick<MemoryRecord, 'id' | 'ownerId'>, assetId: string) => ({
  ...keys.memoryAsset(memory.id, assetId),
  ...indexKeys.assetMemories(assetId, memory.id),
  type: 'memoryAsset',
  memoryId: memory.id,
  assetId,
  // Its change partition is its memory owner's (shared/db/changes.ts).
  ownerId: memory.ownerId,
});

/** A memory's `updatedAt`, set with every change of its assets (Immich's), in the same transaction. */
const touch = (memory: Pick<MemoryRecord, 'id' | 'ownerId'>, updatedAt: string): Write<'gone'> =>
  updateWrite(keys.memory(memory.ownerId, memory.id), 'SET updatedAt = :updatedAt', {
    condition: 'present',
    values: { ':updatedAt': updatedAt },
    refusal: 'gone',
  });

/** The owner's memory, or undefined (someone else's reads as missing). */
export const get = async (ownerId: string, memoryId: string): Promise<MemoryRecord | undefined> => {
  const item = await getItem(keys.memory(ownerId, memoryId));
  return item ? memoryCodec.read(item) : undefined;
};

/** Every memory of an owner (Query `USER#<id>` MEMORY#): unsaved ones go after 30 days, so a few hundred at most. */
export const list = async (ownerId: string): Promise<MemoryRecord[]> =>
  (await queryAll(partitions.userMemories(ownerId))).map(memoryCodec.read);

/** The ids of a memory's assets (Query `MEMORY#<id>` ASSET#). */
export const listAssetIds = async (memoryId: string): Promise<string[]> =>
  (await queryAll(partitions.memoryAssets(memoryId), { attributes: ['assetId'] })).map((item) => String(item.assetId));

/** Which of `assetIds` are in the memory (BatchGetItem of their entries). */
export const memoryAssetsAmong = async (memoryId: string, assetIds: readonly string[]): Promise<Set<string>> =>
  new Set((await batchGet(assetIds.map((assetId) => keys.memoryAsset(memoryId, assetId)))).map((item) => String(item.assetId)));

/**
 * Stores a new memory with its assets: the memory and its first 99 assets in one transaction,
 * conditional on the memory not existing (a nightly run's ids are derived from what they are
 * about, so a second run, or a retry, makes nothing twice: refused, `exists`). More assets (only a
 * client's own memory can have them) follow in transactions of 100.
 */
export const create = async (memory: MemoryRecord, assetIds: readonly string[]): Promise<Outcome<'exists'>> => {
  const [first = [], ...rest] = chunk(assetIds, 99);
  try {
    await transact([putWrite(memoryItem(memory), { condition: 'absent' }), ...first.map((id) => putWrite(memoryAssetItem(memory, id)))]);
  } catch (error) {
    if (isCancelled(error)) return refused('exists');
    throw error;
  }
  for (const part of rest) await transact(part.map((id) => putWrite(memoryAssetItem(memory, id))));
  return done();
};

/** Changes a memory's fields: the memory as changed, or `gone` if it was deleted meanwhile. */
export const update = async (
  memory: MemoryRecord,
  change: Partial<Pick<MemoryRecord, 'isSaved' | 'seenAt' | 'memoryAt' | 'updatedAt'>>,
): Promise<Outcome<'gone', MemoryRecord>> => {
  const { expression, names, values } = setFields(change);
  const written = await tryWriteOne(
    updateWrite(keys.memory(memory.ownerId, memory.id), expression, { condition: 'present', names, values, refusal: 'gone' }),
  );
  return written.ok ? doneWith({ ...memory, ...change }) : written;
};

/** Runs a memory's transactions in turn, up to the first refused (`gone`: the memory was deleted meanwhile). */
const inTurn = async (transactions: readonly (readonly Write<'gone'>[])[]): Promise<Outcome<'gone'>> => {
  for (const writes of transactions) {
    const written = await tryTransact(writes);
    if (!written.ok) return written;
  }
  return done();
};

/** Adds assets to a memory (with its `updatedAt`), 99 a transaction; `gone` if it was deleted meanwhile. */
export const addAssets = (memory: MemoryRecord, assetIds: readonly string[], updatedAt: string): Promise<Outcome<'gone'>> =>
  inTurn(chunk(assetIds, 99).map((part) => [touch(memory, updatedAt), ...part.map((id) => putWrite(memoryAssetItem(memory, id)))]));

/**
 * Takes assets out of a memory, each with its deletion record for the sync stream (and the
 * memory's `updatedAt`); `gone` if it was deleted meanwhile.
 */
export const removeAssets = (memory: MemoryRecord, assetIds: readonly string[], updatedAt: string): Promise<Outcome<'gone'>> =>
  inTurn(
    chunk(assetIds, 49).map((part) => [
      touch(memory, updatedAt),
      ...part.flatMap((id) => [
        deleteWrite(keys.memoryAsset(memory.id, id), { sync: 'recorded' }),
        deletionWrites.memoryAsset(memory.ownerId, memory.id, id),
      ]),
    ]),
  );

/**
 * Deletes a memory: the memory and its deletion record in one transaction, then its assets'
 * entries, which go with it (as Immich's cascade; the apps drop them with the memory).
 */
export const remove = async (memory: Pick<MemoryRecord, 'id' | 'ownerId'>): Promise<void> => {
  try {
    await transact([
      deleteWrite(keys.memory(memory.ownerId, memory.id), { condition: 'present', sync: 'recorded' }),
      deletionWrites.memory(memory.ownerId, memory.id),
    ]);
  } catch (error) {
    // Deleted meanwhile: its entries are still removed below.
    if (!isCancelled(error)) throw error;
  }
  const assetIds = await listAssetIds(memory.id);
  await batchDelete(
    assetIds.map((assetId) => keys.memoryAsset(memory.id, assetId)),
    'with-parent',
  );
};

/** What goes with an asset deleted for good: its entries in memories (Query gsi2), as Immich's cascade. */
export const deleteAssetMemberships = async (assetId: string): Promise<void> => {
  const entries = await queryAll(partitions.assetMemories(assetId), { attributes: ['memoryId'] });
  await batchDelete(
    entries.map((item) => keys.memoryAsset(String(item.memoryId), assetId)),
    'with-parent',
  );
};

/** The last day "on this day" memories were made for (Immich's `memories-state`), if any. */
export const getState = async (): Promise<string | undefined> => {
  const item = await getItem(keys.memoriesState());
  return typeof item?.lastOnThisDayDate === 'string' ? item.lastOnThisDayDate : undefined;
};

/**
 * Records the last day memories were made for; never moves it back (a slower concurrent run loses:
 * `behind`, nothing written).
 */
export const setState = (lastOnThisDayDate: string): Promise<Outcome<'behind'>> =>
  tryWriteOne(
    updateWrite(keys.memoriesState(), 'SET #type = :type, lastOnThisDayDate = :day', {
      condition: 'attribute_not_exists(lastOnThisDayDate) OR lastOnThisDayDate < :day',
      names: { '#type': 'type' },
      values: { ':type': 'systemMetadata', ':day': lastOnThisDayDate },
      refusal: 'behind',
    }),
  );
