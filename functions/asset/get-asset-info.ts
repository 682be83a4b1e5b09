import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AssetResponseDto } from '#shared/mappers/asset.mapper.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getAssetInfo } from '#shared/services/asset.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AssetResponseDto>(), params: IdParams }, ({ auth, params }) =>
  getAssetInfo(auth, params.id),
);
