import { httpHandler } from '#shared/http/handler.ts';
import { AlbumInfoDto } from '#shared/schemas/album.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getAlbumInfo } from '#shared/services/album.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams, query: AlbumInfoDto }, ({ auth, params, query }) =>
  getAlbumInfo(auth, params.id, query.withoutAssets ?? false),
);
