import { IdParams } from '#shared/dto/common.ts';
import type { AlbumResponseDto } from '#shared/dto/v1/album.response.ts';
import { mapAlbumView } from '#shared/dto/v1/album.response.ts';
import { AddUsersDto } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { addUsersToAlbum } from '#shared/services/album/users.service.ts';

export const handler = httpHandler(
  { publish, access: 'user', permission: 'albumUser.create', returns: returns<AlbumResponseDto>(), params: IdParams, body: AddUsersDto },
  async ({ auth, params, body }) => mapAlbumView(await addUsersToAlbum(auth, params.id, body), auth.user.id),
);
