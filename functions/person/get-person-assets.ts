import { IdParams } from '#shared/dto/common.ts';
import { type AssetResponseDto, mapAssetWithFaces } from '#shared/dto/v1/asset.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPersonAssets } from '#shared/services/person/person.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'person.read', returns: returns<AssetResponseDto[]>(), params: IdParams },
  async ({ auth, params }) => (await getPersonAssets(auth, params.id)).map((asset) => mapAssetWithFaces(asset, auth.user.id)),
);
