import { IdParams } from '#shared/dto/common.ts';
import { type AssetResponseDto, mapAssetInfoV3, type SanitizedAssetResponseDto } from '#shared/dto/v3/asset.response.ts';
import { returns } from '#shared/http/pipeline.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getAssetInfo } from '#shared/services/asset.service.ts';

export const handler = sharedHandler(
  {
    generation: 'v3',
    access: 'shared',
    permission: 'asset.read',
    returns: returns<AssetResponseDto | SanitizedAssetResponseDto>(),
    params: IdParams,
  },
  async ({ auth, params }) => mapAssetInfoV3(await getAssetInfo(auth, params.id), auth.user.id),
);
