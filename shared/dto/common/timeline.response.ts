/** `AssetStatsResponseDto`: an owner's counts of images and videos, both generations'. */
export interface AssetStatsResponseDto {
  images: number;
  videos: number;
  total: number;
}
