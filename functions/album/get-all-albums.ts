import { httpHandler } from '#shared/http/handler.ts';
import { GetAlbumsDto } from '#shared/schemas/album.ts';
import { getAllAlbums } from '#shared/services/album.service.ts';

export const handler = httpHandler({ access: 'user', query: GetAlbumsDto }, ({ auth, query }) => getAllAlbums(auth, query));
