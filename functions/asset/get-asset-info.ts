import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getAssetInfo } from '#shared/services/asset.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams }, ({ auth, params }) => getAssetInfo(auth, params.id));
