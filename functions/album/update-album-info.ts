import { IdParams } from '#shared/dto/common.ts';
import type { AlbumResponseDto } from '#shared/dto/v1/album.response.ts';
import { mapAlbumView } from '#shared/dto/v1/album.response.ts';
import { UpdateAlbumDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateAlbumInfo } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'album.update', returns: returns<AlbumResponseDto>(), params: IdParams, body: UpdateAlbumDto },
  async ({ auth, params, body }) => mapAlbumView(await updateAlbumInfo(auth, params.id, body), auth.user.id),
);
