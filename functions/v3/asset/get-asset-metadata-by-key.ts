import { type AssetMetadataResponseDto, mapAssetMetadata } from '#shared/dto/v3/asset-metadata.response.ts';
import { AssetMetadataRouteParams } from '#shared/dto/v3/asset-metadata.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMetadataByKey } from '#shared/services/asset-metadata.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.read',
    params: AssetMetadataRouteParams,
    returns: returns<AssetMetadataResponseDto>(),
  },
  async ({ auth, params }) => mapAssetMetadata(await getMetadataByKey(auth, params.id, params.key)),
);
