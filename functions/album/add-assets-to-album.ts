import { httpHandler } from '#shared/http/handler.ts';
import { BulkIdsDto } from '#shared/schemas/asset.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { addAssetsToAlbum } from '#shared/services/album.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams, body: BulkIdsDto }, ({ auth, params, body }) => addAssetsToAlbum(auth, params.id, body.ids));
