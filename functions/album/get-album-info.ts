import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AlbumResponseDto } from '#shared/mappers/album.mapper.ts';
import { AlbumInfoDto } from '#shared/schemas/album.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getAlbumInfo } from '#shared/services/album.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AlbumResponseDto>(), params: IdParams, query: AlbumInfoDto },
  ({ auth, params, query }) => getAlbumInfo(auth, params.id, query.withoutAssets ?? false),
);
