import type { AssetResponseDto } from '#shared/dto/v1/asset.response.ts';
import { mapSearchHit } from '#shared/dto/v1/search.response.ts';
import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchAssets } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<AssetResponseDto[]>(), query: SearchAssetsDto },
  async ({ auth, query }) => (await searchAssets(auth, query)).items.map((hit) => mapSearchHit(hit, auth.user.id, query.withExif === true)),
);
