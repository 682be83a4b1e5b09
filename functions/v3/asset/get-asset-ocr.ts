import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetOcr } from '#shared/services/asset.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.read', params: IdParams, returns: returns<unknown[]>() },
  ({ auth, params }) => getAssetOcr(auth, params.id),
);
