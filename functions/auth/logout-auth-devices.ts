import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { logoutAuthDevices } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user', permission: 'session.delete', returns: returns<void>(), status: 204 }, ({ auth }) =>
  logoutAuthDevices(auth),
);
