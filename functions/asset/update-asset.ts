import { IdParams } from '#shared/dto/common.ts';
import type { AssetResponseDto } from '#shared/dto/v1/asset.response.ts';
import { mapAssetDetail } from '#shared/dto/v1/asset.response.ts';
import { UpdateAssetDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateAsset } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { publish, access: 'user', permission: 'asset.update', returns: returns<AssetResponseDto>(), params: IdParams, body: UpdateAssetDto },
  async ({ auth, params, body }) => mapAssetDetail(await updateAsset(auth, params.id, body), auth.user.id),
);
