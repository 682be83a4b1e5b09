import type { AlbumCountResponseDto } from '#shared/dto/common/album.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAlbumCount } from '#shared/services/album/album.service.ts';

// v1.100's /album/count under v3's name: the same three counts.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'album.statistics', returns: returns<AlbumCountResponseDto>() },
  ({ auth }) => getAlbumCount(auth),
);
