import type { AssetRecord } from '../../model/asset.ts';
import { type AssetResponseDto, mapAsset, mapSanitizedAsset, type SanitizedAssetResponseDto } from './asset.response.ts';

export interface TimeBucketResponseDto {
  timeBucket: string;
  count: number;
}

export interface AssetStatsResponseDto {
  images: number;
  videos: number;
  total: number;
}

export const mapBucketAssets = (
  { assets, sanitized }: { assets: readonly AssetRecord[]; sanitized: boolean },
  callerId: string,
): (AssetResponseDto | SanitizedAssetResponseDto)[] =>
  sanitized ? assets.map(mapSanitizedAsset) : assets.map((asset) => mapAsset(asset, { callerId, withExif: true }));
