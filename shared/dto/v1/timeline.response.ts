import type { BucketAssets } from '../../model/time-bucket.ts';
import { type AssetResponseDto, mapAsset, mapSanitizedAsset, type SanitizedAssetResponseDto } from './asset.response.ts';

/** `TimeBucketResponseDto`. */
export interface TimeBucketResponseDto {
  timeBucket: string;
  count: number;
}

/** A bucket's assets with EXIF, or sanitized for a visitor whose link hides metadata. */
export const mapBucketAssets = ({ assets, sanitized }: BucketAssets, callerId: string): (AssetResponseDto | SanitizedAssetResponseDto)[] =>
  sanitized ? assets.map(mapSanitizedAsset) : assets.map((asset) => mapAsset(asset, { callerId, withExif: true, withStack: true }));
