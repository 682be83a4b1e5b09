/**
 * Immich v3's asset metadata (docs/data-model.md, pattern 90): one item per key of an asset, in a
 * partition of the asset's own (`ASSETMETADATA#<assetId>`), each in its owner's change partition
 * for the sync stream. A write is conditioned on its asset still being there, and deleting an asset
 * deletes its metadata after it, so no item outlives its asset.
 */
import { inBatches } from '../core/concurrency.ts';
import type { AssetMetadataEntry, AssetMetadataRecord } from '../model/asset-metadata.ts';
import { batchDelete } from './batch.ts';
import { getItem } from './get.ts';
import * as keys from './item-keys.ts';
import { assetMetadataCodec, type MetadataAsset } from './items/asset-metadata.ts';
import * as assetMetadataWrites from './items/asset-metadata-writes.ts';
import * as deletionWrites from './items/deletion-writes.ts';
import type { Key } from './keys.ts';
import * as partitions from './partitions.ts';
import { queryAll } from './query.ts';
import { transactGroups, type Write } from './transact.ts';

export type { MetadataAsset } from './items/asset-metadata.ts';

/** DynamoDB's largest sort key, in bytes: a key longer than that cannot have been stored. */
const maxSortKeyBytes = 1024;
const storable = (key: Key): boolean => Buffer.byteLength(key.sk) <= maxSortKeyBytes;

/**
 * Transactions of a bulk write in flight at once: the iOS app's 20,000 keys (of as many photos) are
 * 400 transactions of 50 keys and their assets' checks.
 */
const maxInFlight = 16;
/** TransactWriteItems' limit. */
const maxWrites = 100;

/** An asset's metadata, in the order of its keys (Query `ASSETMETADATA#<assetId>`, consistent). */
export const list = async (assetId: string): Promise<AssetMetadataRecord[]> =>
  (await queryAll(partitions.assetMetadata(assetId))).map(assetMetadataCodec.read);

/** One key of an asset's metadata (GetItem), or undefined. */
export const get = async (assetId: string, key: string): Promise<AssetMetadataRecord | undefined> => {
  const itemKey = keys.assetMetadata(assetId, key);
  if (!storable(itemKey)) return undefined;
  const item = await getItem(itemKey);
  return item ? assetMetadataCodec.read(item) : undefined;
};

/**
 * Runs groups of writes as transactions of at most 100 writes, 16 in flight, each group whole
 * or not at all, never two groups of one `item` in one transaction (an asset's ConditionCheck would
 * be twice in it, which DynamoDB refuses). Returns, for each group, whether a condition failed.
 */
const runGroups = async (groups: readonly { item: string; writes: Write[] }[]): Promise<boolean[]> => {
  const batches: number[][] = [];
  let batch: number[] = [];
  let size = 0;
  let touched = new Set<string>();
  for (const [index, group] of groups.entries()) {
    if (batch.length > 0 && (size + group.writes.length > maxWrites || touched.has(group.item))) {
      batches.push(batch);
      batch = [];
      size = 0;
      touched = new Set();
    }
    batch.push(index);
    size += group.writes.length;
    touched.add(group.item);
  }
  if (batch.length > 0) batches.push(batch);
  const failed = groups.map(() => false);
  await inBatches(batches, maxInFlight, async (indexes) => {
    // One transaction (the groups fit in one); transactGroups leaves out a group whose condition failed and writes the rest.
    const outcome = await transactGroups(indexes.map((index) => groups[index]?.writes ?? []));
    for (const [at, index] of indexes.entries()) if (outcome[at] !== undefined) failed[index] = true;
  });
  return failed;
};

/**
 * Upserts keys of assets' metadata (Immich's upsert: a key's value is replaced whole), each with
 * its change id, all with `updatedAt`: per asset a ConditionCheck that it exists and its keys, 99
 * a transaction at most. A large request is several transactions, 16 in flight: each is whole,
 * and each put is idempotent, so a request run again after a failure part way ends the same.
 * Returns the ids of the assets deleted meanwhile, whose keys were not written (they would have
 * gone with them).
 */
export const put = async (
  entries: readonly { asset: MetadataAsset; entry: AssetMetadataEntry }[],
  updatedAt: string,
): Promise<Set<string>> => {
  const byAsset = new Map<string, { asset: MetadataAsset; entries: AssetMetadataEntry[] }>();
  for (const { asset, entry } of entries) {
    const found = byAsset.get(asset.id) ?? { asset, entries: [] };
    found.entries.push(entry);
    byAsset.set(asset.id, found);
  }
  const groups = [...byAsset.values()].flatMap(({ asset, entries: own }) => {
    const parts: { item: string; writes: Write[] }[] = [];
    for (let start = 0; start < own.length; start += maxWrites - 1) {
      parts.push({
        item: asset.id,
        writes: [
          assetMetadataWrites.assetExists(asset.id),
          ...own.slice(start, start + maxWrites - 1).map((entry) => assetMetadataWrites.put(asset, entry, updatedAt)),
        ],
      });
    }
    return parts;
  });
  const failed = await runGroups(groups);
  return new Set(groups.filter((_, index) => failed[index]).map((group) => group.item));
};

/**
 * Deletes keys of assets' metadata, each with its deletion record (AssetMetadataDeleteV1) in the
 * same transaction, 50 keys a transaction; a key that is not there is skipped (nothing to record).
 */
export const remove = async (items: readonly { asset: MetadataAsset; key: string }[]): Promise<void> => {
  const unique = new Map<string, { asset: MetadataAsset; key: string }>();
  for (const item of items) {
    const itemKey = keys.assetMetadata(item.asset.id, item.key);
    if (storable(itemKey)) unique.set(`${itemKey.pk}\u0000${itemKey.sk}`, item);
  }
  await runGroups(
    [...unique].map(([item, { asset, key }]) => ({
      item,
      writes: [assetMetadataWrites.delete(asset.id, key), deletionWrites.assetMetadata(asset.ownerId, asset.id, key)],
    })),
  );
};

/**
 * An asset deleted for good takes its metadata with it, read after the asset's deletion (so a key
 * written before it is found, and none can be written after it: each write checks its asset), as
 * Immich's rows cascade; its apps drop theirs with the asset (`with-parent`).
 */
export const dropAssetMetadata = async (assetId: string): Promise<void> => {
  const items = await queryAll(partitions.assetMetadata(assetId), { attributes: ['pk', 'sk'] });
  await batchDelete(
    items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    'with-parent',
  );
};
