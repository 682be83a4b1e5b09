import { IdParams } from '#shared/dto/common.ts';
import { type AssetOcrResponseDto, mapAssetOcr } from '#shared/dto/v3/ocr.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetOcr } from '#shared/services/ocr.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.read', params: IdParams, returns: returns<AssetOcrResponseDto[]>() },
  async ({ auth, params }) => (await getAssetOcr(auth, params.id)).map((line) => mapAssetOcr(params.id, line)),
);
