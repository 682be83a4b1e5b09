import type { AlbumCountResponseDto } from '#shared/dto/common/album.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAlbumCount } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'album.statistics', returns: returns<AlbumCountResponseDto>() },
  ({ auth }) => getAlbumCount(auth),
);
