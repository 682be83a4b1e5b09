import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AlbumResponseDto } from '#shared/mappers/album.mapper.ts';
import { UpdateAlbumDto } from '#shared/schemas/album.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { updateAlbumInfo } from '#shared/services/album.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AlbumResponseDto>(), params: IdParams, body: UpdateAlbumDto },
  ({ auth, params, body }) => updateAlbumInfo(auth, params.id, body),
);
