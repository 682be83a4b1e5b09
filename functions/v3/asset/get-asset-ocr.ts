import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { type AssetOcrResponseDto, getAssetOcr } from '#shared/services/ocr.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.read', params: IdParams, returns: returns<AssetOcrResponseDto[]>() },
  ({ auth, params }) => getAssetOcr(auth, params.id),
);
