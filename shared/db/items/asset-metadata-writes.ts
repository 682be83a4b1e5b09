import type { AssetMetadataEntry } from '../../model/asset-metadata.ts';
import * as keys from '../item-keys.ts';
import { checkWrite, deleteWrite, putWrite, type Write } from '../transact.ts';
import type { MetadataAsset } from './asset-metadata.ts';

/** The assetMetadataWrites of ./asset-metadata.ts (one export each: imported as a namespace, so a bundle carries only those used). */
/** A key's value (a new one, or replacing the one before: Immich's upsert replaces it whole), with its change id. */
export const put = (asset: MetadataAsset, entry: AssetMetadataEntry, updatedAt: string): Write =>
  putWrite({
    ...keys.assetMetadata(asset.id, entry.key),
    type: 'assetMetadata',
    assetId: asset.id,
    ownerId: asset.ownerId,
    key: entry.key,
    value: JSON.stringify(entry.value),
    updatedAt,
  });
/** The asset is still there: a metadata item is never written for an asset deleted meanwhile (it would outlive it). */
export const assetExists = (assetId: string): Write => checkWrite(keys.asset(assetId), { condition: 'attribute_exists(pk)' });
/** A key that exists (a missing one cancels it: nothing to delete, nothing to record); its deletion record goes beside it. */
const delete_ = (assetId: string, key: string): Write =>
  deleteWrite(keys.assetMetadata(assetId, key), { condition: 'present', sync: 'recorded' });

export { delete_ as delete };
