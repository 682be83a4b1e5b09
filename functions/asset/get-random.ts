import { type AssetResponseDto, mapAsset } from '#shared/dto/v1/asset.response.ts';
import { RandomAssetsDto } from '#shared/dto/v1/timeline.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getRandom } from '#shared/services/timeline.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<AssetResponseDto[]>(), query: RandomAssetsDto },
  async ({ auth, query }) => (await getRandom(auth, query.count ?? 1)).map((asset) => mapAsset(asset, { callerId: auth.user.id })),
);
