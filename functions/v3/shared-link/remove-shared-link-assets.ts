import type { AssetIdsResponseDto } from '#shared/dto/common/shared-link.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AssetIdsDtoV3 } from '#shared/dto/v3/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeSharedLinkAssets } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'sharedLink.update',
    returns: returns<AssetIdsResponseDto[]>(),
    params: IdParams,
    body: AssetIdsDtoV3,
  },
  ({ auth, params, body }) => removeSharedLinkAssets(auth, params.id, body.assetIds),
);
