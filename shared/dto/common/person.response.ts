/** A face's box, as both generations answer it (without its person). */
import type { FaceRecord } from '../../model/asset.ts';

export interface AssetFaceWithoutPersonResponseDto {
  id: string;
  imageWidth: number;
  imageHeight: number;
  boundingBoxX1: number;
  boundingBoxX2: number;
  boundingBoxY1: number;
  boundingBoxY2: number;
}

export const mapFace = (face: FaceRecord): AssetFaceWithoutPersonResponseDto => ({
  id: face.id,
  imageWidth: face.imageWidth,
  imageHeight: face.imageHeight,
  boundingBoxX1: face.boundingBoxX1,
  boundingBoxX2: face.boundingBoxX2,
  boundingBoxY1: face.boundingBoxY1,
  boundingBoxY2: face.boundingBoxY2,
});

/** `PersonStatisticsResponseDto`, both generations'. */
export interface PersonStatisticsResponseDto {
  assets: number;
}
