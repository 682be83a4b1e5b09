import { AlbumUserParamsV3 } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeUserFromAlbum } from '#shared/services/album/users.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'albumUser.delete', returns: returns<void>(), params: AlbumUserParamsV3, status: 204 },
  ({ auth, params }) => removeUserFromAlbum(auth, params.id, params.userId),
);
