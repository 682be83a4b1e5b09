import { AssetBulkDeleteDtoV3 } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { deleteAssets } from '#shared/services/trash.service.ts';

export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'asset.delete',
    returns: returns<void>(),
    body: AssetBulkDeleteDtoV3,
    status: 204,
  },
  ({ auth, body }) => deleteAssets(auth, body.ids, body.force ?? false),
);
