/**
 * `npm run bench -- stall`: while one client sends each kind of route's costliest valid request,
 * a second one pings (GET /api/server/ping every 100 ms); the worst ping per request says how long
 * the server stopped answering anyone else. The server is `npm start` in a process of its own
 * (STALL_PORT, default 41600; its own DynamoDB Local in a scratch DATA_DIR), so the client's own
 * work never delays the pings.
 *
 * The requests come from the route table where they can be generated (test/support/route-inputs.ts
 * reads each handler's schemas): every route with a list of ids in its body gets as many as its
 * schema takes (docs/api.md, "Limits"; 20,000 where it states none), every GET with a date or size in its query gets them at their
 * widest; and, by hand, what has no list to generate: a deep tag tree made and deleted, the
 * searches and the sync stream at their largest pages. `STALL_ONLY=<regex>` keeps the requests
 * whose name matches. A request is given up after 30 s (API Gateway's 29 s limit), and the next
 * starts once the pings are quick again (or after 120 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SyncRequestType } from '@immich/sdk-v3';
import { routes } from '#infra/routes.ts';
import { makeJpeg } from '../support/photos.ts';
import { fieldsOf, required, type Schema, widens, widest } from '../support/route-inputs.ts';
import { table } from './stats.ts';

const root = join(import.meta.dirname, '..', '..');
const port = Number(process.env.STALL_PORT ?? 41600);
const base = `http://127.0.0.1:${port}`;
/** A ping slower than this is a stall. */
const boundMs = 500;
const requestTimeoutMs = 30_000;
const ids = 20_000;

interface Costly {
  name: string;
  kind: string;
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

const startServer = async (): Promise<{ child: ChildProcess; stop: () => Promise<void> }> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stall-'));
  const child = spawn(process.execPath, [join(root, 'infra', 'local', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, TABLE_NAME: 'stall', LOG_LEVEL: 'silent', WEB_DIR: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    if (
      await fetch(`${base}/api/server/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(250);
  }
  return {
    child,
    stop: async () => {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

const call = async (token: string, method: string, path: string, options: { query?: Record<string, unknown>; body?: unknown } = {}) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {}))
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) search.append(key, String(item));
  const response = await fetch(`${base}${path}${search.size > 0 ? `?${search}` : ''}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  const text = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(text), json: () => JSON.parse(text) };
};

/** Pings every 100 ms until stopped: each ping's latency (one still pending when stopped counts as long as it has waited). */
const pinger = () => {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const pending = fetch(`${base}/api/server/ping`).then(
        (r) => r.text(),
        () => undefined,
      );
      const tick = sleep(100);
      await pending;
      latencies.push(performance.now() - started);
      await tick;
    }
  })();
  return {
    latencies,
    stop: async () => {
      running = false;
      await loop;
    },
  };
};

/**
 * Waits until three reads in a row are quick: the server finished what a given-up request left
 * running. A read of the table (`GET /api/users/me`), not a ping: a given-up request's DynamoDB
 * calls may still fill the client's sockets while the event loop is free.
 */
const quiet = async (token: string): Promise<number> => {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < 120_000) {
    const ping = performance.now();
    await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    quick = performance.now() - ping < 50 ? quick + 1 : 0;
    await sleep(100);
  }
  return performance.now() - started;
};

const upload = async (token: string, i: number): Promise<string> => {
  const form = new FormData();
  const date = new Date(Date.UTC(2000 + (i % 25), i % 12, 1 + (i % 28))).toISOString();
  for (const [key, value] of Object.entries({ deviceAssetId: `stall-${i}`, deviceId: 'stall', fileCreatedAt: date, fileModifiedAt: date }))
    form.append(key, value);
  form.append('assetData', new Blob([new Uint8Array(makeJpeg({ width: 64 + (i % 16) }))]), `stall-${i}.jpg`);
  const response = await fetch(`${base}/api/assets`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return ((await response.json()) as { id: string }).id;
};

/** The costly requests: generated from the route table, then the ones by hand. */
const costlyRequests = async (own: { album: string; tag: string; asset: string; user: string }): Promise<Costly[]> => {
  const requests: Costly[] = [];
  const pool = [own.asset];
  const pathOf = (path: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'userId' || /\/users?\//.test(path) ? own.user : /album/.test(path) ? own.album : /tag/.test(path) ? own.tag : own.asset,
    );
  for (const route of routes) {
    if (route.path.includes('{sessionId}') || route.body === 'upload' || route.method === 'ANY') continue;
    const { handler } = (await import(join(root, route.entry))) as { handler: { schemas?: { body?: Schema; query?: Schema } } };
    const body = handler.schemas?.body ? fieldsOf(handler.schemas.body) : undefined;
    const query = fieldsOf(handler.schemas?.query);
    const name = `${route.method} ${route.path}`;
    // At the list's stated limit (the costliest request it takes), or 20,000 where none is stated.
    for (const field of body?.filter((f) => f.kind === 'uuids') ?? []) {
      const length = field.maxItems ?? ids;
      requests.push({
        name: `${name} (${field.name})`,
        kind: `${length.toLocaleString('en')} ids`,
        method: route.method,
        path: pathOf(route.path),
        query: required(query, pool),
        body: { ...required(body ?? [], pool), [field.name]: Array.from({ length }, () => randomUUID()) },
      });
    }
    if (route.method === 'GET' && query.some(widens))
      requests.push({ name, kind: 'widest dates and sizes', method: 'GET', path: pathOf(route.path), query: widest(query, pool) });
  }
  const tree = Array.from({ length: 300 }, (_, i) => `stall/${i % 10}/${i % 30}/${i % 60}/${i}`);
  requests.push(
    { name: 'PUT /api/tags (300 paths, 5 deep)', kind: 'tag tree', method: 'PUT', path: '/api/tags', body: { tags: tree } },
    { name: 'DELETE /api/tags/{id} (the tree of 401 tags)', kind: 'tag tree', method: 'DELETE', path: '/api/tags/{stall}' },
    { name: 'POST /api/search/metadata (size 1000)', kind: 'search', method: 'POST', path: '/api/search/metadata', body: { size: 1000 } },
    { name: 'POST /api/search/random (size 1000)', kind: 'search', method: 'POST', path: '/api/search/random', body: { size: 1000 } },
    { name: 'GET /api/search/explore', kind: 'search', method: 'GET', path: '/api/search/explore' },
    { name: 'POST /api/sync/stream (every type)', kind: 'sync', method: 'POST', path: '/api/sync/stream', body: { types: syncTypes } },
  );
  return requests;
};

/** Every type the 3.2 SDK names, but a V1 that has a V2 (a V1 beside its V2 is refused as deprecated). */
const syncTypes = Object.values(SyncRequestType).filter(
  (type: string) => !(type.endsWith('V1') && (Object.values(SyncRequestType) as string[]).includes(type.replace(/V1$/, 'V2'))),
);

export const stallSection = {
  name: 'stall',
  async run(): Promise<string> {
    const server = await startServer();
    try {
      const signUp = { email: 'stall@immich.cloud', password: 'password', name: 'Stall' };
      await fetch(`${base}/api/auth/admin-sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signUp),
      });
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: signUp.email, password: signUp.password }),
      });
      const { accessToken: token, userId: user } = (await login.json()) as { accessToken: string; userId: string };
      const assets: string[] = [];
      for (let i = 0; i < 30; i++) assets.push(await upload(token, i));
      const album = (await call(token, 'POST', '/api/albums', { body: { albumName: 'stall', assetIds: assets } })).json().id as string;
      const [tag] = (await call(token, 'PUT', '/api/tags', { body: { tags: ['stall-one'] } })).json() as { id: string }[];
      await quiet(token);
      const only = process.env.STALL_ONLY ? new RegExp(process.env.STALL_ONLY) : undefined;
      const requests = (await costlyRequests({ album, tag: tag?.id ?? '', asset: assets[0] ?? '', user })).filter(
        (r) => !only || only.test(r.name),
      );
      const rows: (string | number)[][] = [];
      for (const request of requests) {
        let path = request.path;
        if (path.includes('{stall}')) {
          const all = (await call(token, 'GET', '/api/tags')).json() as { id: string; value: string }[];
          path = path.replace('{stall}', all.find((t) => t.value === 'stall')?.id ?? randomUUID());
        }
        const pings = pinger();
        const started = performance.now();
        const answer = await call(token, request.method, path, { query: request.query, body: request.body }).catch((error: Error) => ({
          status: error.name === 'TimeoutError' ? 'timeout' : error.message,
          bytes: 0,
        }));
        const ms = performance.now() - started;
        await pings.stop();
        const worst = Math.max(0, ...pings.latencies);
        const slow = pings.latencies.filter((latency) => latency > boundMs).length;
        const after = await quiet(token);
        rows.push([
          request.name,
          request.kind,
          answer.status,
          ms.toFixed(0),
          answer.bytes.toLocaleString('en'),
          worst.toFixed(0),
          `${slow}/${pings.latencies.length}`,
          worst <= boundMs ? 'yes' : '**no**',
          after > 1_000 ? (after / 1000).toFixed(1) : '–',
        ]);
        console.error(rows.at(-1)?.join(' | '));
      }
      const stalls = rows.filter((row) => row[7] !== 'yes').length;
      return [
        `A ping every 100 ms beside each costly request, on \`npm start\` (its own DynamoDB Local), load average ${loadavg()[0]?.toFixed(1)} at the end; bound ${boundMs} ms. ${rows.length} requests, ${stalls} past the bound.`,
        '',
        table(
          [
            'request',
            'kind',
            'status',
            'answer ms',
            'answer bytes',
            'worst ping ms',
            `pings > ${boundMs} ms`,
            'within bound',
            'busy after (s)',
          ],
          rows,
        ),
      ].join('\n');
    } finally {
      await server.stop();
    }
  },
};
