import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AlbumResponseDto } from '#shared/mappers/album.mapper.ts';
import { CreateAlbumDto } from '#shared/schemas/album.ts';
import { createAlbum } from '#shared/services/album.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AlbumResponseDto>(), body: CreateAlbumDto, status: 201 },
  ({ auth, body }) => createAlbum(auth, body),
);
