/** The WebSocket API's `$disconnect` route: the connection is no longer kept (docs/data-model.md, "Connections"). */
import { disconnectHandler } from '#shared/http/socket-handler.ts';
import { closeConnection } from '#shared/services/realtime.service.ts';

export const handler = disconnectHandler(closeConnection);
