import { IdParams } from '#shared/dto/common.ts';
import { type AssetMetadataResponseDto, mapAssetMetadata } from '#shared/dto/v3/asset-metadata.response.ts';
import { AssetMetadataUpsertDto } from '#shared/dto/v3/asset-metadata.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { upsertMetadata } from '#shared/services/asset-metadata.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.update',
    params: IdParams,
    body: AssetMetadataUpsertDto,
    returns: returns<AssetMetadataResponseDto[]>(),
  },
  async ({ auth, params, body }) => (await upsertMetadata(auth, params.id, body.items)).map(mapAssetMetadata),
);
