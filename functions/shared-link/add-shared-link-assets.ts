import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { AssetIdsDto } from '#shared/schemas/shared-link.ts';
import type { AssetIdsResponseDto } from '#shared/services/shared-link.service.ts';
import { addSharedLinkAssets } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AssetIdsResponseDto[]>(), params: IdParams, body: AssetIdsDto },
  ({ auth, params, body }) => addSharedLinkAssets(auth, params.id, body.assetIds),
);
