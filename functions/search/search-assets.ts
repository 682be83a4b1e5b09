import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AssetResponseDto } from '#shared/mappers/asset.mapper.ts';
import { SearchAssetsDto } from '#shared/schemas/search.ts';
import { searchAssets } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AssetResponseDto[]>(), query: SearchAssetsDto }, ({ auth, query }) =>
  searchAssets(auth, query),
);
