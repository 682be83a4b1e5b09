import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { SharedLinkEditDto } from '#shared/schemas/shared-link.ts';
import { updateSharedLink } from '#shared/services/shared-link.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams, body: SharedLinkEditDto }, ({ auth, params, body }) => updateSharedLink(auth, params.id, body));
