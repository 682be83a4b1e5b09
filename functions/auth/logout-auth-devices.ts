import { httpHandler } from '#shared/http/handler.ts';
import { logoutAuthDevices } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user', status: 204 }, ({ auth }) => logoutAuthDevices(auth));
