import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { logoutAuthDevices } from '#shared/services/auth.service.ts';

// Every session but the current one ends.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'session.delete', returns: returns<void>(), status: 204 },
  ({ auth }) => logoutAuthDevices(auth),
);
