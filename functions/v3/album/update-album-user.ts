import { AlbumUserParamsV3, UpdateAlbumUserDto } from '#shared/dto/v3/album.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateAlbumUser } from '#shared/services/album/users.service.ts';

// A shared user's role: `editor` adds and removes assets, `viewer` only looks.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'albumUser.update',
    returns: returns<void>(),
    params: AlbumUserParamsV3,
    body: UpdateAlbumUserDto,
    status: 204,
  },
  ({ auth, params, body }) => updateAlbumUser(auth, params.id, params.userId === 'me' ? auth.user.id : params.userId, body.role),
);
