/**
 * The frames of socket.io's WebSocket transport, as Immich's apps read them (Engine.IO protocol 4,
 * socket.io protocol 5): one packet a WebSocket message, its type a digit, then JSON. The server
 * speaks first (the open packet), sends one CONNECT of the default namespace, its events, and a
 * ping the client answers with a pong (docs/web-app.md, "Realtime").
 */

/** Engine.IO's open packet: the session id, no upgrades (WebSocket only), the heartbeat's two values. */
export const openPacket = (options: { sid: string; pingIntervalMs: number; pingTimeoutMs: number }): string =>
  `0${JSON.stringify({
    sid: options.sid,
    upgrades: [],
    pingInterval: options.pingIntervalMs,
    pingTimeout: options.pingTimeoutMs,
    maxPayload: 1_000_000,
  })}`;

/** socket.io's CONNECT of the default namespace (`4` message, `0` connect), with the socket's id. */
export const connectPacket = (sid: string): string => `40${JSON.stringify({ sid })}`;

/** socket.io's DISCONNECT of the default namespace: the client does not reconnect after it. */
export const disconnectPacket = '41';

/** Engine.IO's ping (the client answers `3`). */
export const pingPacket = '2';

/** An event of the default namespace: `42["name",arg…]` (no argument: `42["name"]`). */
export const eventPacket = (name: string, ...args: readonly unknown[]): string => `42${JSON.stringify([name, ...args])}`;
