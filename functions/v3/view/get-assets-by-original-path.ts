import { type AssetResponseDto, mapAssetV3 } from '#shared/dto/v3/asset.response.ts';
import { FolderQuery } from '#shared/dto/v3/view.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetsByOriginalPath } from '#shared/services/view.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'folder.read', query: FolderQuery, returns: returns<AssetResponseDto[]>() },
  async ({ auth, query }) =>
    (await getAssetsByOriginalPath(auth, query.path)).map((asset) => mapAssetV3(asset, { callerId: auth.user.id, withExif: true })),
);
