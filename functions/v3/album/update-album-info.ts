import { IdParams } from '#shared/dto/common.ts';
import { type AlbumResponseDto, mapAlbumV3 } from '#shared/dto/v3/album.response.ts';
import { UpdateAlbumDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateAlbumInfo } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'album.update',
    returns: returns<AlbumResponseDto>(),
    params: IdParams,
    body: UpdateAlbumDtoV3,
  },
  async ({ auth, params, body }) => mapAlbumV3(await updateAlbumInfo(auth, params.id, body), auth.user.id),
);
