import * as v from 'valibot';
import { type AssetMetadataEntry, AssetMetadataRecordSchema, isJsonObject } from '../../model/asset-metadata.ts';
import { codec } from '../codec.ts';
import * as keys from '../item-keys.ts';
import { checkWrite, deleteWrite, putWrite, type Write } from '../transact.ts';

/**
 * The value is stored as its JSON text: it comes back exactly as sent (a DynamoDB map would turn
 * every number into DynamoDB's, refuse a number beyond its range and an empty attribute name, and
 * limit the nesting to 32 levels).
 */
const StoredSchema = v.object({
  ...AssetMetadataRecordSchema.entries,
  value: v.pipe(
    v.string(),
    v.transform((text): unknown => JSON.parse(text)),
    v.check(isJsonObject),
    v.transform((value) => value as Record<string, unknown>),
  ),
});

export const assetMetadataCodec = codec('assetMetadata', StoredSchema);

/** The asset an entry belongs to: its id, and its owner (whose stream sends it). */
export interface MetadataAsset {
  id: string;
  ownerId: string;
}

export const assetMetadataWrites = {
  /** A key's value (a new one, or replacing the one before: Immich's upsert replaces it whole), with its change id. */
  put: (asset: MetadataAsset, entry: AssetMetadataEntry, updatedAt: string): Write =>
    putWrite({
      ...keys.assetMetadata(asset.id, entry.key),
      type: 'assetMetadata',
      assetId: asset.id,
      ownerId: asset.ownerId,
      key: entry.key,
      value: JSON.stringify(entry.value),
      updatedAt,
    }),
  /** The asset is still there: a metadata item is never written for an asset deleted meanwhile (it would outlive it). */
  assetExists: (assetId: string): Write => checkWrite(keys.asset(assetId), { condition: 'attribute_exists(pk)' }),
  /** A key that exists (a missing one cancels it: nothing to delete, nothing to record); its deletion record goes beside it. */
  delete: (assetId: string, key: string): Write =>
    deleteWrite(keys.assetMetadata(assetId, key), { condition: 'present', sync: 'recorded' }),
};
