import { type AlbumResponseDto, mapAlbumV3 } from '#shared/dto/v3/album.response.ts';
import { GetAlbumsDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAllAlbums } from '#shared/services/album/album.service.ts';

// The CLI's `upload --album` reads every album's name here first.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'album.read', returns: returns<AlbumResponseDto[]>(), query: GetAlbumsDtoV3 },
  async ({ auth, query }) => (await getAllAlbums(auth, query)).map((view) => mapAlbumV3(view, auth.user.id)),
);
