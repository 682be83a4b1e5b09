import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { noQuota } from '#shared/domain/quota.ts';
import { managementProxy } from '../support/management-proxy.ts';
import { assetRecord } from '../support/records.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { table } from './stats.ts';

/**
 * Publishing at size (docs/benchmarks.md, "Realtime"), through the local server on DynamoDB Local:
 * 1,000 photos of one user, whose web app and phone app are connected (the real socket.io-client,
 * as test/support/realtime.ts opens it), changed in bulk by the requests that tell the apps of
 * each photo: `PUT /assets` (an `on_asset_update` each), `DELETE /assets` (one `on_asset_trash`),
 * `POST /trash/empty` (an `on_asset_delete` each). For each: how long until the answer, how long
 * until both apps had every event, and the request's DynamoDB calls.
 */
const count = 1000;

/** How long each call to the management API is made to take, as a round trip to API Gateway's would (tens of ms). */
const roundTripMs = 20;

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-realtime-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  const { recordUpload } = await import('#shared/db/asset.repository.ts');
  const { countRoundTrips } = await import('../support/round-trips.ts');
  const sockets: Socket[] = [];
  let proxy: Awaited<ReturnType<typeof managementProxy>> | undefined;
  try {
    const { baseUrl, adminAuth } = stack;
    const origin = baseUrl.replace(/\/api$/, '');
    const token = adminAuth.headers.Authorization.replace('Bearer ', '');
    const me = (await (await fetch(`${baseUrl}/users/me`, { headers: adminAuth.headers })).json()) as { id: string };
    const seed = async (): Promise<string[]> => {
      const assets = Array.from({ length: count }, (_, i) =>
        assetRecord(me.id, { at: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(), deviceAssetId: `bench-${i}` }),
      );
      for (let i = 0; i < assets.length; i += 8)
        await Promise.all(
          assets
            .slice(i, i + 8)
            .map((asset) => recordUpload({ asset, faces: [], newPeople: [], existingPeople: new Set(), quota: noQuota })),
        );
      return assets.map((asset) => asset.id);
    };

    // The web app (v1.100's shapes) and the 3.x phone app (v3's), each keeping when it was told what.
    type App = { arrivals: Map<string, number[]> };
    const connect = (headers: Record<string, string>): App => {
      const arrivals = new Map<string, number[]>();
      const socket = io(origin, {
        path: '/api/socket.io',
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: { cookie: `immich_access_token=${token}`, ...headers },
      });
      socket.onAny((name: string) => arrivals.set(name, [...(arrivals.get(name) ?? []), performance.now()]));
      sockets.push(socket);
      return { arrivals };
    };
    const waitFor = async (what: () => boolean, deadlineMs: number): Promise<boolean> => {
      const deadline = Date.now() + deadlineMs;
      while (!what() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return what();
    };

    const rows: (string | number)[][] = [];
    const local = process.env.REALTIME_ENDPOINT ?? '';
    for (const phase of ['none', 'web + phone', `web + phone, ${roundTripMs} ms a post`] as const) {
      const connected = phase !== 'none';
      if (phase.endsWith('a post')) {
        proxy = await managementProxy(local, { delayMs: roundTripMs });
        process.env.REALTIME_ENDPOINT = proxy.endpoint;
      }
      const ids = await seed();
      for (const socket of sockets.splice(0)) socket.close();
      const apps = connected ? [connect({}), connect({ 'user-agent': 'immich-android/3.1.0' })] : [];
      const told = (name: string, expected: number) => apps.every((app) => (app.arrivals.get(name)?.length ?? 0) >= expected);
      if (!(await waitFor(() => told('on_server_version', 1), 20_000))) throw new Error('the apps were not greeted');
      const cases = [
        {
          name: `PUT /assets (${count} ids, isFavorite)`,
          method: 'PUT',
          path: '/assets',
          body: { ids, isFavorite: true },
          event: 'on_asset_update',
          each: count,
        },
        {
          name: `DELETE /assets (${count} ids, to the trash)`,
          method: 'DELETE',
          path: '/assets',
          body: { ids },
          event: 'on_asset_trash',
          each: 1,
        },
        {
          name: `POST /trash/empty (${count} photos)`,
          method: 'POST',
          path: '/trash/empty',
          body: undefined,
          event: 'on_asset_delete',
          each: count,
        },
      ];
      for (const c of cases) {
        for (const app of apps) app.arrivals.delete(c.event);
        if (proxy) proxy.stats.maxInFlight = 0;
        const started = performance.now();
        let status = 0;
        let answeredMs = 0;
        const calls = await countRoundTrips(async () => {
          const reply = await fetch(`${baseUrl}${c.path}`, {
            method: c.method,
            headers: { ...adminAuth.headers, 'content-type': 'application/json' },
            ...(c.body ? { body: JSON.stringify(c.body) } : {}),
          });
          status = reply.status;
          answeredMs = performance.now() - started;
        });
        const arrived = await waitFor(() => told(c.event, c.each), 120_000);
        const times = apps.flatMap((app) => app.arrivals.get(c.event) ?? []);
        const received = apps.map((app) => app.arrivals.get(c.event)?.length ?? 0).join(' + ');
        const seconds = (ms: number) => (ms / 1000).toFixed(1);
        rows.push([
          c.name,
          phase,
          status,
          seconds(answeredMs),
          connected ? `${received}${arrived ? '' : ' (not all)'}` : '–',
          times.length > 0 ? `${seconds(Math.min(...times) - started)} → ${seconds(Math.max(...times) - started)}` : '–',
          calls.length,
          proxy ? proxy.stats.maxInFlight : '–',
        ]);
      }
    }
    return [
      `Through the local server on DynamoDB Local (\`npm run bench -- realtime\`): ${count} photos of one user, changed by one request each, first with no app connected (publishing is then one Query), then again on 1,000 more with the web app and the 3.x phone app connected, and again with each call to the management API made to take ${roundTripMs} ms as a round trip to API Gateway's does (a delaying proxy, test/support/management-proxy.ts); times from the request's start, DynamoDB calls the whole request's (its operation and its publishing).`,
      '',
      table(
        [
          'request',
          'apps connected',
          'status',
          'answered s',
          'events told (web + phone)',
          'first → last event s',
          'DynamoDB calls',
          'most posts at once',
        ],
        rows,
      ),
    ].join('\n');
  } finally {
    for (const socket of sockets) socket.close();
    await proxy?.close();
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

// Handlers read TABLE_NAME and the endpoint when first imported: this section runs in its own process.
if (import.meta.main) process.stdout.write(await measure());

export const realtimeSection = { name: 'realtime', run: ownProcess(import.meta.url) };
