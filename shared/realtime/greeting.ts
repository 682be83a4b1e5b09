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
 * When the greeter tries the connection, ms apart: API Gateway opens it once `$connect` has
 * answered, and until then refuses every post to it (410), which changes nothing. `$connect` hands
 * the connection on just before it answers, so it is open by the greeter's first try but for a
 * moment's race; the waits cover a slow open, not a client that left, whose every try costs the
 * greeter's time (docs/deployment.md, "Realtime"). A signed-in connection is tried for about 3 s
 * (well inside the 20 s Immich's apps wait for the open packet), a refused one for about 1.5 s:
 * what it is told is only that it was refused.
 */
const openWaitsMs = { welcome: [0, 50, 100, 200, 400, 800, 1600], unauthorized: [0, 50, 100, 200, 400, 800] } as const;

/**
 * What the server says first on a new connection, which Immich's apps wait for before anything:
 * Engine.IO's open packet (the heartbeat's values: shared/model/realtime.ts), socket.io's CONNECT
 * (sent once, unprompted: the client accepts it, and its own CONNECT needs no answer), then
 * `on_server_version` in the connection's generation. A connection whose credentials were refused
 * gets what Immich sends it (CONNECT, `error` "unauthorized", DISCONNECT), after which neither app
 * reconnects, and is closed. API Gateway cannot post from `$connect` itself, so its function hands
 * the connection to this one (the greeter). The open packet's post is also the test of whether the
 * connection is open yet (no GetConnection first): tried at `openWaitsMs` until it is sent.
 */
export const greet = async (greeting: Greeting): Promise<'greeted' | 'refused' | 'gone'> => {
  const api = await managementApi();
  if (!api) throw new Error('No management API to greet a connection with (REALTIME_ENDPOINT)');
  const { connectionId } = greeting;
  const open = openPacket({
    sid: socketId(),
    pingIntervalMs: env.pingIntervalMs(heartbeat.pingIntervalMs),
    pingTimeoutMs: env.pingTimeoutMs(heartbeat.pingTimeoutMs),
  });
  let opened = false;
  for (const wait of openWaitsMs[greeting.kind]) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    opened = (await api.post(connectionId, open)) === 'sent';
    if (opened) break;
  }
  if (!opened) return 'gone';
  const frames = [
    connectPacket(socketId()),
    ...(greeting.kind === 'welcome' ? [serverVersionFrame(greeting.generation)] : [eventPacket('error', 'unauthorized'), disconnectPacket]),
  ];
  for (const frame of frames) if ((await api.post(connectionId, frame)) === 'gone') return 'gone';
  if (greeting.kind === 'welcome') return 'greeted';
  await api.close(connectionId);
  return 'refused';
};
