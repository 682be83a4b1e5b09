import { AssetBulkUpdateDto } from '#shared/dto/v1/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateAssets } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.update', returns: returns<void>(), body: AssetBulkUpdateDto, status: 204 },
  ({ auth, body }) => updateAssets(auth, body.ids, body),
);
