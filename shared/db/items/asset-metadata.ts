import * as v from 'valibot';
import { AssetMetadataRecordSchema, isJsonObject } from '../../model/asset-metadata.ts';
import { codec } from '../codec.ts';

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
