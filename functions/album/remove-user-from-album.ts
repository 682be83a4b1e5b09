import { AlbumUserParams } from '#shared/dto/v1/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeUserFromAlbum } from '#shared/services/album/users.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'albumUser.delete', returns: returns<void>(), params: AlbumUserParams },
  ({ auth, params }) => removeUserFromAlbum(auth, params.id, params.userId),
);
