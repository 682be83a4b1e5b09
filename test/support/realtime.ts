import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import { hangGuard } from './timeouts.ts';

/** One event a socket received: its name and arguments, as the app's listener gets them. */
export interface Received {
  name: string;
  args: unknown[];
}

/** Immich's 3.x Android app names itself so on every request, the socket's upgrade included. */
export const androidUserAgent = 'immich-android/3.1.0';

/**
 * A socket opened as Immich's apps open theirs, with the real `socket.io-client` (the version the
 * v3.1 web app ships): path `/api/socket.io`, WebSocket transport only, no query, no auth payload,
 * the session cookie on the upgrade (the browser's, or the mobile app's cookie jar), and the
 * app's User-Agent for the mobile app. Every event it receives is kept, in order.
 */
export const openSocket = (origin: string, options: { token?: string; headers?: Record<string, string>; userAgent?: string } = {}) => {
  const received: Received[] = [];
  const closes: string[] = [];
  const socket: Socket = io(origin, {
    path: '/api/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: {
      ...(options.token ? { cookie: `immich_access_token=${options.token}; immich_is_authenticated=true` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...options.headers,
    },
  });
  socket.onAny((name: string, ...args: unknown[]) => received.push({ name, args }));
  socket.on('disconnect', (reason) => closes.push(reason));
  let pings = 0;
  socket.io.on('ping', () => {
    pings++;
  });

  /**
   * The first event named `name` (matching `where`) received, already or next. Waiting has a
   * deadline only so a missing event fails the test instead of hanging it; nothing is timed.
   */
  const next = async (name: string, where: (...args: any[]) => boolean = () => true): Promise<unknown[]> => {
    const deadline = Date.now() + hangGuard.wait;
    for (;;) {
      const found = received.find((event) => event.name === name && where(...event.args));
      if (found) return found.args;
      if (Date.now() > deadline) {
        expect.fail(`no ${name} event; received: ${received.map((event) => event.name).join(', ') || 'none'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  return {
    socket,
    received,
    closes,
    next,
    get pings() {
      return pings;
    },
    /** Resolves once the CONNECT arrived (the server's `40{sid}`). */
    connected: (): Promise<void> =>
      socket.connected
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            socket.once('connect', () => resolve());
            socket.once('connect_error', reject);
          }),
    /** Waits until the socket was closed by the other side (or fails at the deadline). */
    closed: async (): Promise<string> => {
      const deadline = Date.now() + hangGuard.wait;
      while (closes.length === 0) {
        if (Date.now() > deadline) expect.fail('the socket was never closed');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return closes[0] ?? '';
    },
    close: () => socket.disconnect(),
  };
};

export type OpenSocket = ReturnType<typeof openSocket>;
