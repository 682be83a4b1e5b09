import { IdParams } from '#shared/dto/common.ts';
import type { AlbumResponseDto } from '#shared/dto/v1/album.response.ts';
import { mapAlbumView } from '#shared/dto/v1/album.response.ts';
import { AlbumInfoDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAlbumInfo } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'album.read', returns: returns<AlbumResponseDto>(), params: IdParams, query: AlbumInfoDto },
  async ({ auth, params, query }) => mapAlbumView(await getAlbumInfo(auth, params.id, query.withoutAssets ?? false), auth.user.id),
);
