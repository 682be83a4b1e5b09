import { type AlbumResponseDto, mapAlbumV3 } from '#shared/dto/v3/album.response.ts';
import { CreateAlbumDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { createAlbum } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    publish,
    access: 'user',
    permission: 'album.create',
    returns: returns<AlbumResponseDto>(),
    body: CreateAlbumDtoV3,
    status: 201,
  },
  async ({ auth, body }) => mapAlbumV3(await createAlbum(auth, body), auth.user.id),
);
