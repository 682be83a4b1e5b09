import { type AssetResponseDto, mapAssetV3 } from '#shared/dto/v3/asset.response.ts';
import { RandomSearchDtoV3 } from '#shared/dto/v3/search.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchRandom } from '#shared/services/search.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'asset.read',
    returns: returns<AssetResponseDto[]>(),
    body: RandomSearchDtoV3,
    status: 200,
  },
  async ({ auth, body }) =>
    (await searchRandom(auth, body, body.size ?? 250)).map((asset) =>
      mapAssetV3(asset, { callerId: auth.user.id, withExif: body.withExif === true }),
    ),
);
