import * as v from 'valibot';
import { id, instant } from './fields.ts';

/**
 * Immich v3's asset metadata: key-value pairs an owner's clients keep with an asset (Immich's
 * `asset_metadata`; the iOS app keeps its iCloud ids under `mobile-app`). The value is any JSON
 * object; it is stored as its JSON text, so it comes back exactly as it was sent (the app reads
 * `latitude` and `longitude` back as strings). docs/immich-compatibility.md, "Asset metadata".
 */

/** A JSON object (not an array, not null): what a metadata value must be (Immich's `z.record`). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A metadata value as it is, never rebuilt: valibot's `record` would copy it and drop keys such
 * as `__proto__` or `constructor`, and a value comes back exactly as it was sent.
 */
export const metadataValue = (message?: string) => v.custom<Record<string, unknown>>(isJsonObject, message);

/** One key of an asset's metadata, as stored. */
export const AssetMetadataRecordSchema = v.object({
  assetId: id(),
  /** The asset's owner: whose sync stream sends it (AssetMetadataV1). */
  ownerId: id(),
  key: v.string(),
  value: metadataValue(),
  updatedAt: instant(),
});
export type AssetMetadataRecord = v.InferOutput<typeof AssetMetadataRecordSchema>;

/** One key and its value, as a client sends them (PUT /assets/:id/metadata, the upload's `metadata` field). */
export interface AssetMetadataEntry {
  key: string;
  value: Record<string, unknown>;
}

/** One key of one asset (the bulk routes). */
export interface AssetMetadataItem extends AssetMetadataEntry {
  assetId: string;
}
