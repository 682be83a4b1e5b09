import { httpHandler } from '#shared/http/handler.ts';
import { getApiKeys } from '#shared/services/api-key.service.ts';

export const handler = httpHandler({ access: 'user' }, ({ auth }) => getApiKeys(auth));
