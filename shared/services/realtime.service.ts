/**
 * Immich's realtime connections (docs/web-app.md, "Realtime"): what the WebSocket API's
 * `$connect` and `$disconnect` functions do once the HTTP edge has read and checked the
 * connection's credentials (shared/http/socket-handler.ts), with the same code as every route.
 */
import * as connectionRepo from '../db/connection.repository.ts';
import { connectionLifetimeSeconds, type Generation } from '../model/realtime.ts';
import type { Auth } from '../model/user.ts';
import { queueGreeting } from '../storage/realtime-jobs.ts';

export type { Greeting } from '../storage/realtime-jobs.ts';

/**
 * A signed-in connection: kept in its user's list (and the session's it signed in with, for the
 * session's own events), then greeted. Immich's rooms: the user's, and the session's (an API
 * key has none).
 */
export const openConnection = async (auth: Auth, connectionId: string, generation: Generation): Promise<void> => {
  const connectedAt = new Date();
  await connectionRepo.put({
    connectionId,
    userId: auth.user.id,
    sessionHash: auth.sessionHash ?? null,
    generation,
    connectedAt: connectedAt.toISOString(),
    ttl: Math.floor(connectedAt.getTime() / 1000) + connectionLifetimeSeconds,
  });
  await queueGreeting({ kind: 'welcome', connectionId, generation });
};

/** A connection whose credentials were refused: nothing is kept; it is told so, as Immich tells it, and closed. */
export const refuseConnection = (connectionId: string): Promise<void> => queueGreeting({ kind: 'unauthorized', connectionId });

/** A connection closed (by the app, by API Gateway after 2 hours, or by the server). */
export const closeConnection = (connectionId: string): Promise<void> => connectionRepo.remove(connectionId);
