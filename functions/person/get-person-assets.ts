import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getPersonAssets } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams }, ({ auth, params }) => getPersonAssets(auth, params.id));
