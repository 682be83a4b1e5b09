import type { ServerPingResponse } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

// What the mobile app calls first, to accept a server URL.
export const handler = publicHandler({ generation: 'v3', returns: returns<ServerPingResponse>() }, () => ({ res: 'pong' as const }));
