import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AlbumResponseDto } from '#shared/mappers/album.mapper.ts';
import { GetAlbumsDto } from '#shared/schemas/album.ts';
import { getAllAlbums } from '#shared/services/album.service.ts';

export const handler = httpHandler({ access: 'user', returns: returns<AlbumResponseDto[]>(), query: GetAlbumsDto }, ({ auth, query }) =>
  getAllAlbums(auth, query),
);
