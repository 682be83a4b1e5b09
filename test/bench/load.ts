import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeJpeg } from '../support/photos.ts';
import { ownProcess, startLocalStack } from './local-stack.ts';
import { median, percentile, table } from './stats.ts';

/**
 * A mixed workload through the local server, bounded in time and sent to loopback only: several
 * users reading (search, albums, assets, people, text search) and writing (favourites, album
 * adds and removes, uploads, trash and restore) at once. Then: how fast ping answers while
 * worst-case searches run (a file-name pattern over a whole library, which examines the most).
 */
const seconds = Number(process.env.LOAD_SECONDS ?? 30);
const clients = Number(process.env.LOAD_CLIENTS ?? 16);

type Call = () => Promise<Response>;

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'immich-bench-load-'));
  const stack = await startLocalStack({ ORIGINALS_DIR: join(work, 'originals') });
  const sdk = await import('@immich/sdk');
  try {
    const { baseUrl, adminAuth } = stack;
    let colour = 0;
    const photo = () => makeJpeg({ color: [colour++ % 256, Math.floor(colour / 256) % 256, 7], make: 'Bench', city: 'Loadtown' });
    const upload = (token: string) => {
      const data = photo();
      const form = new FormData();
      const now = new Date().toISOString();
      for (const [name, value] of Object.entries({
        deviceAssetId: `load-${colour}`,
        deviceId: 'bench',
        fileCreatedAt: now,
        fileModifiedAt: now,
      }))
        form.append(name, value);
      form.append('assetData', new File([new Uint8Array(data)], `load-${colour}.jpg`));
      return fetch(`${baseUrl}/asset/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    };

    // Four users, each with 40 photos and an album.
    const users: { token: string; assets: string[]; album: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `load${i}@immich.cloud`;
      await sdk.createUser({ createUserDto: { email, password: 'password', name: `Load ${i}` } }, adminAuth);
      const { accessToken } = await sdk.login({ loginCredentialDto: { email, password: 'password' } }, { baseUrl });
      const assets: string[] = [];
      for (let j = 0; j < 40; j++) assets.push(((await (await upload(accessToken)).json()) as { id: string }).id);
      const album = await sdk.createAlbum(
        { createAlbumDto: { albumName: `Load ${i}`, assetIds: assets.slice(0, 10) } },
        { baseUrl, headers: { authorization: `Bearer ${accessToken}` } },
      );
      users.push({ token: accessToken, assets, album: album.id });
    }

    const json = (method: string, token: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
    const operations: { name: string; weight: number; call: (user: (typeof users)[number]) => Call }[] = [
      { name: 'GET /assets', weight: 15, call: (u) => () => json('GET', u.token, '/assets?size=50&withExif=true') },
      { name: 'GET /album', weight: 10, call: (u) => () => json('GET', u.token, '/album') },
      { name: 'GET /album/:id', weight: 10, call: (u) => () => json('GET', u.token, `/album/${u.album}`) },
      { name: 'GET /asset/:id', weight: 15, call: (u) => () => json('GET', u.token, `/asset/${pick(u.assets)}`) },
      { name: 'GET /search', weight: 5, call: (u) => () => json('GET', u.token, '/search?q=loadtown') },
      { name: 'GET /person', weight: 5, call: (u) => () => json('GET', u.token, '/person') },
      {
        name: 'PUT /asset/:id',
        weight: 15,
        call: (u) => () => json('PUT', u.token, `/asset/${pick(u.assets)}`, { isFavorite: Math.random() < 0.5 }),
      },
      {
        name: 'PUT /album/:id/assets',
        weight: 8,
        call: (u) => () => json('PUT', u.token, `/album/${u.album}/assets`, { ids: [pick(u.assets)] }),
      },
      {
        name: 'DELETE /album/:id/assets',
        weight: 7,
        call: (u) => () => json('DELETE', u.token, `/album/${u.album}/assets`, { ids: [pick(u.assets)] }),
      },
      { name: 'DELETE /asset (trash)', weight: 3, call: (u) => () => json('DELETE', u.token, '/asset', { ids: [pick(u.assets)] }) },
      {
        name: 'POST /trash/restore/assets',
        weight: 3,
        call: (u) => () => json('POST', u.token, '/trash/restore/assets', { ids: [pick(u.assets)] }),
      },
      { name: 'POST /asset/upload', weight: 4, call: (u) => () => upload(u.token) },
    ];
    const wheel = operations.flatMap((operation) => Array.from({ length: operation.weight }, () => operation));

    const latencies = new Map<string, number[]>();
    const statuses = new Map<number, number>();
    const deadline = performance.now() + seconds * 1000;
    const client = async (index: number): Promise<void> => {
      const user = users[index % users.length] ?? users[0];
      if (!user) return;
      while (performance.now() < deadline) {
        const operation = pick(wheel);
        const start = performance.now();
        const response = await operation.call(user)();
        await response.arrayBuffer();
        const ms = performance.now() - start;
        latencies.set(operation.name, [...(latencies.get(operation.name) ?? []), ms]);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
    const elapsed = (performance.now() - began) / 1000;
    const all = [...latencies.values()].flat();
    const errors = [...statuses].filter(([status]) => status >= 500).reduce((n, [, count]) => n + count, 0);

    // Ping alone, then ping while four clients run the search that examines the most.
    const pingOnce = async (): Promise<number> => {
      const start = performance.now();
      await (await fetch(`${baseUrl}/server-info/ping`)).arrayBuffer();
      return performance.now() - start;
    };
    const pings = async (count: number): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) times.push(await pingOnce());
      return times;
    };
    const idle = await pings(200);
    let searching = true;
    const worst = `/assets?size=1000&originalFileName=${encodeURIComponent('%l%o%a%d%zz')}`;
    const searchers = users.map(async (user) => {
      let count = 0;
      while (searching) {
        await (await json('GET', user.token, worst)).arrayBuffer();
        count++;
      }
      return count;
    });
    const busy = await pings(200);
    searching = false;
    const searches = (await Promise.all(searchers)).reduce((a, b) => a + b, 0);

    return [
      `${clients} clients as 4 users (40 photos and an album each, more as they upload), for ${seconds} s, through the local server on loopback (server and clients share one Node process and the machine's 2 cores; DynamoDB Local in memory).`,
      '',
      table(
        ['requests', 'requests/s', 'p50 ms', 'p99 ms', 'responses ≥ 500', 'statuses'],
        [
          [
            all.length,
            (all.length / elapsed).toFixed(0),
            median(all).toFixed(1),
            percentile(all, 99).toFixed(1),
            errors,
            [...statuses]
              .sort(([a], [b]) => a - b)
              .map(([s, n]) => `${s}: ${n}`)
              .join(', '),
          ],
        ],
      ),
      '',
      table(
        ['operation', 'count', 'p50 ms', 'p99 ms'],
        operations.map((operation) => {
          const values = latencies.get(operation.name) ?? [];
          return [operation.name, values.length, median(values).toFixed(1), percentile(values, 99).toFixed(1)];
        }),
      ),
      '',
      `Ping, 200 requests one after another, alone and while 4 clients run \`GET ${worst}\` back to back (${searches} such searches meanwhile):`,
      '',
      table(
        ['ping', 'p50 ms', 'p99 ms'],
        [
          ['alone', median(idle).toFixed(2), percentile(idle, 99).toFixed(2)],
          ['during worst-case searches', median(busy).toFixed(2), percentile(busy, 99).toFixed(2)],
        ],
      ),
    ].join('\n');
  } finally {
    await stack.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

// The handlers' DynamoDB client reads TABLE_NAME when first imported: this section runs in a process of its own.
if (import.meta.main) process.stdout.write(await measure());

export const loadSection = { name: 'load', run: ownProcess(import.meta.url) };
