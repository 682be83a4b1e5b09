import type { OcrLineRecord } from '../../model/ocr.ts';

/** Immich's AssetOcrResponseDto (GET /assets/:id/ocr): one line of an asset's text. */
export interface AssetOcrResponseDto {
  id: string;
  assetId: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  x3: number;
  y3: number;
  x4: number;
  y4: number;
  boxScore: number;
  textScore: number;
  text: string;
}

export const mapAssetOcr = (assetId: string, line: OcrLineRecord): AssetOcrResponseDto => ({
  id: line.id,
  assetId,
  x1: line.x1,
  y1: line.y1,
  x2: line.x2,
  y2: line.y2,
  x3: line.x3,
  y3: line.y3,
  x4: line.x4,
  y4: line.y4,
  boxScore: line.boxScore,
  textScore: line.textScore,
  text: line.text,
});
