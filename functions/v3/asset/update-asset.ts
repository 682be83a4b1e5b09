import { IdParams } from '#shared/dto/common.ts';
import { type AssetResponseDto, mapAssetDetailV3 } from '#shared/dto/v3/asset.response.ts';
import { UpdateAssetDtoV3 } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateAsset } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'asset.update',
    returns: returns<AssetResponseDto>(),
    params: IdParams,
    body: UpdateAssetDtoV3,
  },
  async ({ auth, params, body }) => mapAssetDetailV3(await updateAsset(auth, params.id, body), auth.user.id),
);
