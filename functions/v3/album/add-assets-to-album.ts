import type { BulkIdResponseDto } from '#shared/dto/common/album.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AlbumAssetIdsDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { addAssetsToAlbum } from '#shared/services/album/album.service.ts';

// The CLI's `upload --album`: per id `success`, `duplicate` or `no_permission`, as v1.100's.
export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'albumAsset.create',
    returns: returns<BulkIdResponseDto[]>(),
    params: IdParams,
    body: AlbumAssetIdsDtoV3,
  },
  ({ auth, params, body }) => addAssetsToAlbum(auth, params.id, body.ids),
);
