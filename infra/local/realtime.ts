import type { Server as HttpServer, IncomingHttpHeaders } from 'node:http';
import { Server } from 'socket.io';

/** Calls one of the API's routes as the local server does (its handler, an API Gateway event). */
export type InvokeRoute = (method: string, url: string, headers: IncomingHttpHeaders) => Promise<{ status: number; body: unknown }>;

/** What a connection keeps to act as its user: the handshake's credentials, as the API reads them. */
interface Caller {
  headers: IncomingHttpHeaders;
  /** The credential parameters of the handshake's query (`apiKey`, `userToken`, `key`), if any. */
  query: string;
  /** Answered in v3's shapes (a 3.x app, or the v3 web app served). */
  v3: boolean;
}

const credentialParams = ['apiKey', 'userToken', 'key'];

/**
 * Immich's realtime channel, locally: the socket.io server Immich's web and mobile apps open at
 * `/api/socket.io` (WebSocket transport only, as Immich's). Everything it says comes from the API's
 * own routes, called with the connection's credentials (cookie, token or key): `GET /api/user/me`
 * signs it in (without valid credentials it is closed, as Immich closes it) and names the user's
 * room; the server's version is sent as `on_server_version`, as Immich sends it; and once an
 * upload's previews are made, the asset is sent to its owner's connections as `on_upload_success`
 * (the timeline shows the photo without a reload). Each in the connection's generation: v3's
 * (`/api/server/version`, `/api/assets/{id}`) for the 3.x apps and when the web build served is
 * v3's (`v3Web`), else v1.100's. Deployed there is no socket (docs/web-app.md, "Realtime").
 */
export const attachRealtime = (server: HttpServer, invoke: InvokeRoute, options: { v3Web?: boolean } = {}) => {
  const io = new Server<Record<string, never>, Record<string, (payload: unknown) => void>, Record<string, never>, Caller>(server, {
    path: '/api/socket.io',
    transports: ['websocket'],
    serveClient: false,
  });
  const call = (caller: Caller, path: string) => invoke('GET', caller.query ? `${path}?${caller.query}` : path, caller.headers);

  io.on('connection', async (socket) => {
    try {
      const { headers, url } = socket.request;
      const params = new URLSearchParams((url ?? '').split('?')[1] ?? '');
      const query = new URLSearchParams([...params].filter(([name]) => credentialParams.includes(name))).toString();
      const v3 = options.v3Web === true || /^immich-(android|ios)\//i.test(String(headers['user-agent'] ?? ''));
      const caller: Caller = { headers, query, v3 };
      const me = await call(caller, '/api/user/me');
      const id = (me.body as { id?: unknown } | undefined)?.id;
      if (me.status !== 200 || typeof id !== 'string') {
        socket.disconnect(true);
        return;
      }
      socket.data = caller;
      await socket.join(id);
      const version = await invoke('GET', v3 ? '/api/server/version' : '/api/server-info/version', {});
      socket.emit('on_server_version', version.body);
    } catch (error) {
      console.error('realtime connection failed', error);
      socket.disconnect(true);
    }
  });

  return {
    /** Tells the owner's open apps of a new upload, each with the asset as that connection sees it. */
    uploadSucceeded: async (ownerId: string, assetId: string): Promise<void> => {
      for (const socket of await io.in(ownerId).fetchSockets()) {
        const asset = await call(socket.data, socket.data.v3 ? `/api/assets/${assetId}` : `/api/asset/${assetId}`);
        if (asset.status === 200) socket.emit('on_upload_success', asset.body);
      }
    },
    /** Ends every connection (`io.close()` would close the HTTP server too, which its owner does). */
    close: (): void => {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
};

export type Realtime = ReturnType<typeof attachRealtime>;
