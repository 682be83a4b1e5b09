import { type AssetResponseDto, mapAsset } from '#shared/dto/v1/asset.response.ts';
import { type AssetResponseDto as AssetResponseDtoV3, mapAssetV3 } from '#shared/dto/v3/asset.response.ts';
import { clientGeneration } from '#shared/http/generation.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetsByCity } from '#shared/services/map.service.ts';

// Both generations' path, answered as GET /search/explore is: v3's assets to a v3 client the request tells, v1.100's to every other.
export const handler = httpHandler(
  { access: 'user', permission: 'asset.read', returns: returns<AssetResponseDto[] | AssetResponseDtoV3[]>() },
  async ({ auth, event }) => {
    const assets = await getAssetsByCity(auth);
    return clientGeneration(event) === 'v3'
      ? assets.map((asset) => mapAssetV3(asset, { callerId: auth.user.id, withExif: true }))
      : assets.map((asset) => mapAsset(asset, { callerId: auth.user.id, withExif: true }));
  },
);
