import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import type { AlbumResponseDto } from '#shared/mappers/album.mapper.ts';
import { AddUsersDto } from '#shared/schemas/album.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { addUsersToAlbum } from '#shared/services/album.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<AlbumResponseDto>(), params: IdParams, body: AddUsersDto },
  ({ auth, params, body }) => addUsersToAlbum(auth, params.id, body.sharedUserIds),
);
