import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { handler as connectHandler } from '#functions/realtime/connect.ts';
import { handler as disconnectHandler } from '#functions/realtime/disconnect.ts';
import { handler as greetHandler } from '#functions/realtime/greet.ts';
import { createWebSocketApi, serveManagementApi } from '#infra/local/websocket-api.ts';
import { runGreetingsWith } from '#shared/storage/realtime-jobs.ts';
import { managementProxy } from './management-proxy.ts';

/**
 * The WebSocket API's local stand-in (infra/local/websocket-api.ts) with the real $connect,
 * $disconnect and greeter handlers, its management API over HTTP behind a proxy that counts the
 * calls in flight and can hold each (./management-proxy.ts), and `REALTIME_ENDPOINT` pointed at
 * it: started before a file's tests and stopped after. Call at the top of a describe (or file).
 */
export const useWebSocketStandIn = () => {
  let server: Server;
  let management: Server;
  let proxy: Awaited<ReturnType<typeof managementProxy>>;
  let origin = '';
  const api = createWebSocketApi({
    stage: 'test',
    connect: (event) => connectHandler(event),
    disconnect: (event) => disconnectHandler(event),
  });
  beforeAll(async () => {
    runGreetingsWith((greeting) => void greetHandler(greeting));
    management = serveManagementApi(api.manage, { stage: 'test', accessKeyId: () => process.env.AWS_ACCESS_KEY_ID });
    await new Promise<void>((resolve) => management.listen(0, '127.0.0.1', resolve));
    proxy = await managementProxy(`http://127.0.0.1:${(management.address() as AddressInfo).port}/test`, { delayMs: 0 });
    process.env.REALTIME_ENDPOINT = proxy.endpoint;
    server = createServer((_req, res) => res.writeHead(404).end());
    server.on('upgrade', (req, socket, head) => api.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    runGreetingsWith(undefined);
    await api.close();
    delete process.env.REALTIME_ENDPOINT;
    await proxy.close();
    await Promise.all([server, management].map((each) => new Promise((resolve) => each.close(resolve))));
  });
  return {
    api,
    /** `ws://…` of the stand-in, once started. */
    get origin() {
      return origin;
    },
    get proxy() {
      return proxy;
    },
  };
};
