import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AlbumAssetIdsDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { removeAssetsFromAlbum } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'albumAsset.delete',
    returns: returns<BulkIdResponseDto[]>(),
    params: IdParams,
    body: AlbumAssetIdsDtoV3,
  },
  ({ auth, params, body }) => removeAssetsFromAlbum(auth, params.id, body.ids),
);
