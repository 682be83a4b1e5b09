import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getApiKey } from '#shared/services/api-key.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams }, ({ auth, params }) => getApiKey(auth, params.id));
