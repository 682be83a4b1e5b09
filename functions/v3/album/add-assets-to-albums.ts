import type { AlbumsAddAssetsResponseDto } from '#shared/dto/v3/album.response.ts';
import { AlbumsAddAssetsDto } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { addAssetsToAlbums } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'albumAsset.create',
    returns: returns<AlbumsAddAssetsResponseDto>(),
    body: AlbumsAddAssetsDto,
  },
  ({ auth, body }) => addAssetsToAlbums(auth, body.albumIds, body.assetIds),
);
