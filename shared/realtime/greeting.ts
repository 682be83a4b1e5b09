import { randomBytes } from 'node:crypto';
import * as env from '../core/env.ts';
import { serverVersion } from '../dto/v1/server-info.ts';
import { serverVersionV3 } from '../dto/v3/server.ts';
import { heartbeat } from '../model/realtime.ts';
import type { Greeting } from '../storage/realtime-jobs.ts';
import { connectPacket, disconnectPacket, eventPacket, openPacket } from './engine-io.ts';
import { managementApi } from './management.ts';

/** `on_server_version`, as each generation's `/server…/version` answers. */
export const serverVersionFrame = (generation: 'v1' | 'v3'): string =>
  eventPacket('on_server_version', generation === 'v3' ? serverVersionV3 : serverVersion);

/** An id as Engine.IO and socket.io make theirs (20 characters, URL-safe). */
const socketId = (): string => randomBytes(15).toString('base64url');

/**
 * How long the greeter waits for API Gateway to open the connection: it does once `$connect` has
 * answered, and until then every post to it is refused (410). About 6 s in all, well inside the
 * 20 s Immich's apps wait for the open packet.
 */
const openWaitsMs = [0, 50, 100, 200, 400, 800, 1600, 3200];

/**
 * What the server says first on a new connection, which Immich's apps wait for before anything:
 * Engine.IO's open packet (the heartbeat's values: shared/model/realtime.ts), socket.io's CONNECT
 * (sent once, unprompted: the client accepts it, and its own CONNECT needs no answer), then
 * `on_server_version` in the connection's generation. A connection whose credentials were refused
 * gets what Immich sends it (CONNECT, `error` "unauthorized", DISCONNECT), after which neither app
 * reconnects, and is closed. API Gateway cannot post from `$connect` itself, so its function hands
 * the connection to this one (the greeter), which waits for it to open.
 */
export const greet = async (greeting: Greeting): Promise<'greeted' | 'refused' | 'gone'> => {
  const api = await managementApi();
  if (!api) throw new Error('No management API to greet a connection with (REALTIME_ENDPOINT)');
  const { connectionId } = greeting;
  let open = false;
  for (const wait of openWaitsMs) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    open = await api.isOpen(connectionId);
    if (open) break;
  }
  if (!open) return 'gone';
  const frames = [
    openPacket({
      sid: socketId(),
      pingIntervalMs: env.pingIntervalMs(heartbeat.pingIntervalMs),
      pingTimeoutMs: env.pingTimeoutMs(heartbeat.pingTimeoutMs),
    }),
    connectPacket(socketId()),
    ...(greeting.kind === 'welcome' ? [serverVersionFrame(greeting.generation)] : [eventPacket('error', 'unauthorized'), disconnectPacket]),
  ];
  for (const frame of frames) if ((await api.post(connectionId, frame)) === 'gone') return 'gone';
  if (greeting.kind === 'welcome') return 'greeted';
  await api.close(connectionId);
  return 'refused';
};
