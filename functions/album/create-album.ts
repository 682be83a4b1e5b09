import type { AlbumResponseDto } from '#shared/dto/v1/album.response.ts';
import { mapAlbumView } from '#shared/dto/v1/album.response.ts';
import { CreateAlbumDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { createAlbum } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { publish, access: 'user', permission: 'album.create', returns: returns<AlbumResponseDto>(), body: CreateAlbumDto, status: 201 },
  async ({ auth, body }) => mapAlbumView(await createAlbum(auth, body), auth.user.id),
);
