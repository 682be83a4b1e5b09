import { IdParams } from '#shared/dto/common.ts';
import { type AlbumResponseDto, mapAlbumV3 } from '#shared/dto/v3/album.response.ts';
import { AddUsersDtoV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { addUsersToAlbum } from '#shared/services/album/users.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    publish,
    access: 'user',
    permission: 'albumUser.create',
    returns: returns<AlbumResponseDto>(),
    params: IdParams,
    body: AddUsersDtoV3,
  },
  async ({ auth, params, body }) => mapAlbumV3(await addUsersToAlbum(auth, params.id, body), auth.user.id),
);
