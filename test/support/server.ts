import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createLocalServer } from '#infra/local/http-server.ts';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** `${origin}/api`, what the Immich SDK calls baseUrl. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Boots the local HTTP server (the one `npm start` runs) on a free port, on this test file's table. */
export const startServer = async (): Promise<RunningServer> => {
  const server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Starts the local server before this file's tests and stops it after; call at the top of a describe. */
export const useServer = (): { readonly baseUrl: string; readonly origin: string } => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());
  const running = (): RunningServer => {
    if (!server) throw new Error('the server starts in beforeAll');
    return server;
  };
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get origin() {
      return running().origin;
    },
  };
};
