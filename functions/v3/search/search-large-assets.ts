import { type AssetResponseDto, mapAssetV3 } from '#shared/dto/v3/asset.response.ts';
import { LargeAssetSearchDto } from '#shared/dto/v3/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchLargeAssets } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.read',
    returns: returns<AssetResponseDto[]>(),
    query: LargeAssetSearchDto,
    status: 200,
  },
  async ({ auth, query }) =>
    (await searchLargeAssets(auth, query.filters, query.minFileSize, query.size)).map((asset) =>
      mapAssetV3(asset, { callerId: auth.user.id, withExif: query.withExif }),
    ),
);
