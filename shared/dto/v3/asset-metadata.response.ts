import type { AssetMetadataRecord } from '../../model/asset-metadata.ts';

/** Immich v3's `AssetMetadataResponseDto`: the value as it was sent. */
export interface AssetMetadataResponseDto {
  key: string;
  value: Record<string, unknown>;
  updatedAt: string;
}

/** Immich v3's `AssetMetadataBulkResponseDto` (its columns in Immich's order). */
export interface AssetMetadataBulkResponseDto extends AssetMetadataResponseDto {
  assetId: string;
}

export const mapAssetMetadata = ({ key, value, updatedAt }: AssetMetadataRecord): AssetMetadataResponseDto => ({ key, value, updatedAt });

export const mapBulkAssetMetadata = ({ assetId, key, value, updatedAt }: AssetMetadataRecord): AssetMetadataBulkResponseDto => ({
  assetId,
  key,
  value,
  updatedAt,
});
