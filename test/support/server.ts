import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { listen, startDeployed } from '#infra/local/deployed/start.ts';
import { createLocalServer } from '#infra/local/http-server.ts';
import { deployedUploadLimitMb } from '#infra/routes.ts';
import { testDeployment } from './deployed-stack.ts';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** `${origin}/api`, what the Immich SDK calls baseUrl. */
  baseUrl: string;
  /** The largest upload body it takes. */
  uploadLimitBytes: number;
  /**
   * The hourly schedule's tick at `time`, as EventBridge invokes the nightly tasks' function
   * (infra/cdk/nightly-function.ts; locally, infra/local/main.ts), resolved once it has run.
   */
  nightly(time: Date): Promise<void>;
  close(): Promise<void>;
}

/**
 * Which server the e2e tests run against: `source` (the local server `npm start` runs, calling the
 * handler modules) or `deployed` (the synthesized template served as `npm run start:deployed`
 * serves it: bundles, environment, IAM). The vitest project sets E2E_TARGET.
 */
export const target = (): 'source' | 'deployed' => (process.env.E2E_TARGET === 'deployed' ? 'deployed' : 'source');

export interface ServerOptions {
  /** Source only: the upload limit (`MAX_UPLOAD_MB`); deployed, the template's limit holds. */
  uploadLimitBytes?: number;
  /** Deployed only: changes the loaded deployment first (a removed grant, a shorter timeout). */
  adjust?: (deployment: Deployment) => void;
  /**
   * The realtime socket's heartbeat, shortened so a test sees several pings: how often every
   * connection is pinged, and what their open packet advertises. Deployed, the greeter's
   * environment and the heartbeat's schedule are changed (and only that schedule runs).
   */
  heartbeat?: { pingEveryMs: number; pingIntervalMs: number; pingTimeoutMs: number };
}

/** The template's heartbeat, shortened: the greeter advertises the values, the schedule ticks at the rate. */
const shortenHeartbeat = (deployment: Deployment, heartbeat: NonNullable<ServerOptions['heartbeat']>): void => {
  const byDescription = (start: string) => [...deployment.functions.values()].find((fn) => fn.description.startsWith(start));
  const greeter = byDescription('Immich realtime: the greeter');
  const pinger = byDescription('Immich realtime: the heartbeat');
  if (!greeter || !pinger) throw new Error('The template has no realtime greeter or heartbeat');
  greeter.environment.PING_INTERVAL_MS = String(heartbeat.pingIntervalMs);
  greeter.environment.PING_TIMEOUT_MS = String(heartbeat.pingTimeoutMs);
  deployment.schedules = deployment.schedules
    .filter((schedule) => schedule.functionId === pinger.id)
    .map((schedule) => ({ ...schedule, rateMs: heartbeat.pingEveryMs }));
};

const startSource = async (options: ServerOptions): Promise<RunningServer> => {
  const uploadLimitBytes = options.uploadLimitBytes ?? 100 * 1024 * 1024;
  const server = createLocalServer({ uploadLimitBytes, ...(options.heartbeat ? { heartbeat: options.heartbeat } : {}) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api`,
    uploadLimitBytes,
    nightly: async (time) => {
      const { handler } = await import('#functions/nightly/run-nightly-tasks.ts');
      await handler({ time: time.toISOString() });
    },
    close: async () => {
      // The previews its uploads started finish first (they use this file's table).
      await server.mediaIdle();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
};

/** The synthesized stack on this file's table (same DynamoDB Local, same credentials), originals in a fresh s3rver folder. */
const startTemplate = async (options: ServerOptions): Promise<RunningServer> => {
  const s3Dir = mkdtempSync(join(tmpdir(), 'deployed-s3-'));
  const api = await startDeployed({
    ...(await testDeployment(s3Dir)),
    adjust: (deployment) => {
      options.adjust?.(deployment);
      if (options.heartbeat) shortenHeartbeat(deployment, options.heartbeat);
    },
    ...(options.heartbeat ? { schedules: true } : {}),
  });
  const origin = `http://127.0.0.1:${await listen(api.server)}`;
  return {
    origin,
    baseUrl: `${origin}/api`,
    uploadLimitBytes: Math.floor(deployedUploadLimitMb * 1024 * 1024),
    nightly: async (time) => {
      api.tick(time);
      await api.idle();
    },
    close: async () => {
      await api.idle();
      await api.close();
      rmSync(s3Dir, { recursive: true, force: true });
    },
  };
};

/** Boots the server of this run's target on a free port, on this test file's table. */
export const startServer = (options: ServerOptions = {}): Promise<RunningServer> =>
  target() === 'deployed' ? startTemplate(options) : startSource(options);

/** Starts the server before this file's tests and stops it after; call at the top of a describe. */
export const useServer = (
  options: ServerOptions = {},
): {
  readonly baseUrl: string;
  readonly origin: string;
  readonly uploadLimitBytes: number;
  nightly(time: Date): Promise<void>;
} => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(options);
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
    get uploadLimitBytes() {
      return running().uploadLimitBytes;
    },
    nightly: (time) => running().nightly(time),
  };
};
