import type { AlbumResponseDto } from '#shared/dto/v1/album.ts';
import { CreateAlbumDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createAlbum } from '#shared/services/album.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AlbumResponseDto>(), body: CreateAlbumDto, status: 201 },
  ({ auth, body }) => createAlbum(auth, body),
);
