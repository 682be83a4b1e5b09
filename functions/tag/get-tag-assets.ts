import { IdParams } from '#shared/dto/common.ts';
import { type AssetResponseDto, mapAsset } from '#shared/dto/v1/asset.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getTagAssetsV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.read', params: IdParams, returns: returns<AssetResponseDto[]>() },
  async ({ auth, params }) =>
    (await getTagAssetsV1(auth, params.id)).map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true })),
);
