import { httpHandler } from '#shared/http/handler.ts';
import { CreateAlbumDto } from '#shared/schemas/album.ts';
import { createAlbum } from '#shared/services/album.service.ts';

export const handler = httpHandler({ access: 'user', body: CreateAlbumDto, status: 201 }, ({ auth, body }) => createAlbum(auth, body));
