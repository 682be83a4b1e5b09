import type { AlbumResponseDto } from '#shared/dto/v1/album.response.ts';
import { mapAlbumView } from '#shared/dto/v1/album.response.ts';
import { GetAlbumsDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllAlbums } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'album.read', returns: returns<AlbumResponseDto[]>(), query: GetAlbumsDto },
  async ({ auth, query }) => (await getAllAlbums(auth, query)).map((view) => mapAlbumView(view, auth.user.id)),
);
