/**
 * The WebSocket API's `$connect` route (Immich's socket at `/api/socket.io/`; docs/web-app.md,
 * "Realtime"): the upgrade request's credentials checked as every route checks them, the
 * connection kept and handed to the greeter, which speaks first once API Gateway has opened it.
 */
import { connectHandler } from '#shared/http/socket-handler.ts';
import { openConnection, refuseConnection } from '#shared/services/realtime.service.ts';

export const handler = connectHandler({
  open: ({ auth, connectionId, generation }) => openConnection(auth, connectionId, generation),
  refuse: refuseConnection,
});
