import { type AssetResponseDto, mapAsset } from '#shared/dto/v1/asset.response.ts';
import { AssetSearchDto } from '#shared/dto/v1/sync.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllAssets } from '#shared/services/sync/sync.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<AssetResponseDto[]>(), query: AssetSearchDto },
  async ({ auth, query }) =>
    (await getAllAssets(auth, query)).map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true, withTags: true })),
);
