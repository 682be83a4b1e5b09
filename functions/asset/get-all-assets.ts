import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AssetResponseDto } from '#shared/mappers/asset.mapper.ts';
import { AssetSearchDto } from '#shared/schemas/sync.ts';
import { getAllAssets } from '#shared/services/sync.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AssetResponseDto[]>(), query: AssetSearchDto }, ({ auth, query }) =>
  getAllAssets(auth, query),
);
