import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getSharedLinkById } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams }, ({ auth, params }) => getSharedLinkById(auth, params.id));
