import { httpHandler } from '#shared/http/handler.ts';
import { getAuthDevices } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user' }, ({ auth }) => getAuthDevices(auth));
