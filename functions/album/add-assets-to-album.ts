import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AlbumAssetIdsDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { addAssetsToAlbum } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  {
    publish,
    access: 'user',
    permission: 'albumAsset.create',
    returns: returns<BulkIdResponseDto[]>(),
    params: IdParams,
    body: AlbumAssetIdsDto,
  },
  ({ auth, params, body }) => addAssetsToAlbum(auth, params.id, body.ids),
);
