/**
 * Immich v3's asset metadata (docs/immich-compatibility.md, "Asset metadata"): key-value pairs an
 * owner's clients keep with an asset; the iOS app keeps its iCloud ids under `mobile-app` and reads
 * them back from the sync stream (AssetMetadataV1). Reading is for whoever may read the asset
 * (asset.read: its owner, a partner, an album's users); writing is its owner's (asset.update: a
 * locked asset only in a session unlocked with the PIN code).
 */

import { requireAsset, requireAssets } from '../access/asset-access.ts';
import { accessLost, Permission } from '../access/permission.ts';
import { Invalid } from '../core/errors.ts';
import type { MetadataAsset } from '../db/asset-metadata.repository.ts';
import * as assetMetadataRepo from '../db/asset-metadata.repository.ts';
import { bulkItemName, requireUniqueKeys } from '../domain/asset-metadata.ts';
import type { AssetMetadataEntry, AssetMetadataItem, AssetMetadataRecord } from '../model/asset-metadata.ts';
import type { Auth } from '../model/user.ts';

/** The caller's assets among `ids`, by id, every one writable (asset.update), or a 400 for all. */
const writableAssets = async (auth: Auth, ids: readonly string[]): Promise<Map<string, MetadataAsset>> =>
  new Map((await requireAssets(auth, Permission.AssetUpdate, ids)).map((asset) => [asset.id, { id: asset.id, ownerId: asset.ownerId }]));

const records = (asset: MetadataAsset, entries: readonly AssetMetadataEntry[], updatedAt: string): AssetMetadataRecord[] =>
  entries.map((entry) => ({ assetId: asset.id, ownerId: asset.ownerId, key: entry.key, value: entry.value, updatedAt }));

/** GET /assets/:id/metadata: every key, in key order. */
export const getMetadata = async (auth: Auth, id: string): Promise<AssetMetadataRecord[]> => {
  await requireAsset(auth, Permission.AssetRead, id);
  return assetMetadataRepo.list(id);
};

/** GET /assets/:id/metadata/:key: one key, or Immich's 400 naming it. */
export const getMetadataByKey = async (auth: Auth, id: string, key: string): Promise<AssetMetadataRecord> => {
  await requireAsset(auth, Permission.AssetRead, id);
  const found = await assetMetadataRepo.get(id, key);
  if (!found) throw new Invalid(`Metadata with key "${key}" not found for asset with id "${id}"`);
  return found;
};

/** PUT /assets/:id/metadata: the keys given, each replacing its value; the others stay. */
export const upsertMetadata = async (auth: Auth, id: string, entries: readonly AssetMetadataEntry[]): Promise<AssetMetadataRecord[]> => {
  const asset = (await writableAssets(auth, [id])).get(id);
  requireUniqueKeys(entries, (entry) => entry.key);
  if (!asset || entries.length === 0) return [];
  const updatedAt = new Date().toISOString();
  const gone = await assetMetadataRepo.put(
    entries.map((entry) => ({ asset, entry })),
    updatedAt,
  );
  // Deleted since its check: as if it had never been the caller's.
  if (gone.has(id)) throw accessLost(Permission.AssetUpdate);
  return records(asset, entries, updatedAt);
};

/**
 * PUT /assets/metadata: keys of many assets, every asset the caller's (else a 400 and nothing
 * written). A large request is written in transactions (docs/api.md, "Asset metadata"); the keys
 * of an asset deleted while they were written are left out of the answer, as they went with it.
 */
export const upsertBulkMetadata = async (auth: Auth, items: readonly AssetMetadataItem[]): Promise<AssetMetadataRecord[]> => {
  const assets = await writableAssets(
    auth,
    items.map((item) => item.assetId),
  );
  requireUniqueKeys(items, bulkItemName);
  const updatedAt = new Date().toISOString();
  const entries = items.flatMap(({ assetId, key, value }) => {
    const asset = assets.get(assetId);
    return asset ? [{ asset, entry: { key, value } }] : [];
  });
  const gone = entries.length > 0 ? await assetMetadataRepo.put(entries, updatedAt) : new Set<string>();
  return entries.filter(({ asset }) => !gone.has(asset.id)).flatMap(({ asset, entry }) => records(asset, [entry], updatedAt));
};

/** DELETE /assets/:id/metadata/:key: gone (with a deletion the sync stream sends); a key that is not there is no error. */
export const deleteMetadataByKey = async (auth: Auth, id: string, key: string): Promise<void> => {
  const asset = (await writableAssets(auth, [id])).get(id);
  if (asset) await assetMetadataRepo.remove([{ asset, key }]);
};

/** DELETE /assets/metadata: keys of many assets, every asset the caller's (else a 400 and nothing deleted). */
export const deleteBulkMetadata = async (auth: Auth, items: readonly { assetId: string; key: string }[]): Promise<void> => {
  if (items.length === 0) return;
  const assets = await writableAssets(
    auth,
    items.map((item) => item.assetId),
  );
  await assetMetadataRepo.remove(
    items.flatMap(({ assetId, key }) => {
      const asset = assets.get(assetId);
      return asset ? [{ asset, key }] : [];
    }),
  );
};
