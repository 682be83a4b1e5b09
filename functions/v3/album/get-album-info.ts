import { IdParams } from '#shared/dto/common.ts';
import { type AlbumResponseDto, mapAlbumV3 } from '#shared/dto/v3/album.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAlbumInfo } from '#shared/services/album/album.service.ts';

// v3's album carries no assets (the apps read them through the timeline by albumId).
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'album.read', returns: returns<AlbumResponseDto>(), params: IdParams },
  async ({ auth, params }) => mapAlbumV3(await getAlbumInfo(auth, params.id, true), auth.user.id),
);
