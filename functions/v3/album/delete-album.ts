import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { deleteAlbum } from '#shared/services/album/album.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'album.delete', returns: returns<void>(), params: IdParams, status: 204 },
  ({ auth, params }) => deleteAlbum(auth, params.id),
);
