import { AssetBulkUpdateDtoV3 } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateAssets } from '#shared/services/asset.service.ts';

// The apps' favourite, archive (visibility), date and place of many assets.
export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'user',
    permission: 'asset.update',
    returns: returns<void>(),
    body: AssetBulkUpdateDtoV3,
    status: 204,
  },
  ({ auth, body }) => updateAssets(auth, body.ids, body.edit),
);
