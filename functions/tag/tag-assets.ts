import type { AssetIdsResponseDto } from '#shared/dto/common/shared-link.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AssetIdsDto } from '#shared/dto/v1/shared-link.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { addTagAssetsV1 } from '#shared/services/tag/tag.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'tag.asset', params: IdParams, body: AssetIdsDto, returns: returns<AssetIdsResponseDto[]>() },
  ({ auth, params, body }) => addTagAssetsV1(auth, params.id, body.assetIds),
);
