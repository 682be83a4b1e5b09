import type { AssetIdsResponseDto } from '#shared/dto/common/shared-link.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AssetIdsDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeSharedLinkAssets } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'sharedLink.update', returns: returns<AssetIdsResponseDto[]>(), params: IdParams, body: AssetIdsDto },
  ({ auth, params, body }) => removeSharedLinkAssets(auth, params.id, body.assetIds),
);
