import { IdParams } from '#shared/dto/common.ts';
import { type AssetMetadataResponseDto, mapAssetMetadata } from '#shared/dto/v3/asset-metadata.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMetadata } from '#shared/services/asset-metadata.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.read', params: IdParams, returns: returns<AssetMetadataResponseDto[]>() },
  async ({ auth, params }) => (await getMetadata(auth, params.id)).map(mapAssetMetadata),
);
