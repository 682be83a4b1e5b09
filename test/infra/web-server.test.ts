/**
 * Immich's web app beside the API on the local server (infra/local/web-server.ts), with a
 * generated stand-in for the build (CI has no Immich source): the SPA fallback for app routes only,
 * `/api` untouched, the build's files with their caching and precompressed forms, the security
 * headers, nothing outside the build; and the realtime socket Immich's apps open at
 * `/api/socket.io` (infra/local/websocket-api.ts), spoken as socket.io's wire protocol.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createLocalServer, type LocalServer } from '#infra/local/http-server.ts';
import { isV3WebBuild } from '#infra/local/web-server.ts';
import { immutableCacheControl, isAppRoute, securityHeaders } from '#infra/web-app.ts';
import { createApiKey, login, signUpAdmin } from '../support/accounts.ts';
import { makeJpeg } from '../support/photos.ts';
import { hangGuard } from '../support/timeouts.ts';

// With the placeholder Immich's app.html keeps for the share pages' tags.
const shell =
  '<!doctype html><html><head><!-- metadata:tags --><title>stand-in</title></head><body><div id="app">stand-in app shell</div></body></html>';
const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** A build shaped like SvelteKit's static one: a shell, fingerprinted files with .br/.gz, icons. */
const standInBuild = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'web-build-'));
  mkdirSync(join(dir, '_app', 'immutable', 'entry'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), shell);
  const entry = join(dir, '_app', 'immutable', 'entry', 'start.Ab12Cd.js');
  writeFileSync(entry, script);
  writeFileSync(`${entry}.br`, brotliCompressSync(script));
  writeFileSync(`${entry}.gz`, gzipSync(script));
  writeFileSync(join(dir, '_app', 'version.json'), '{"version":"1"}');
  writeFileSync(join(dir, 'manifest.json'), '{"name":"Immich"}');
  writeFileSync(join(dir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  return dir;
};

/** A GET as sent, path and all (fetch resolves `..` and decodes nothing of the answer). */
const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });

/** The admin's API key, signed up once for the whole file (both servers share the table). */
let adminKey: Promise<string> | undefined;
const signedInAdmin = (): Promise<string> =>
  (adminKey ??= (async () => {
    await signUpAdmin();
    const { accessToken } = await login({ email: 'admin@immich.cloud', password: 'password' });
    return (await createApiKey(accessToken)).secret;
  })());

/** A photo uploaded through the server. */
const uploadPhoto = async (origin: string, apiKey: string, name: string, color?: [number, number, number]): Promise<string> => {
  const form = new FormData();
  form.set('assetData', new File([new Uint8Array(makeJpeg({ width: 64, height: 48, ...(color ? { color } : {}) }))], name));
  for (const [field, value] of Object.entries({
    deviceAssetId: name,
    deviceId: 'web',
    fileCreatedAt: '2024-05-01T00:00:00.000Z',
    fileModifiedAt: '2024-05-01T00:00:00.000Z',
  }))
    form.set(field, value);
  const upload = await fetch(`${origin}/api/asset/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
  expect(upload.status).toBe(201);
  return ((await upload.json()) as { id: string }).id;
};

const listen = async (server: LocalServer): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const stop = (server: LocalServer): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe("which of Immich's web apps a build is", () => {
  it('reads v3 (2.x or later) from the version a release build names in _app/version.json; v1.100 names a timestamp', () => {
    const build = (version: string | undefined) => {
      const dir = mkdtempSync(join(tmpdir(), 'web-version-'));
      mkdirSync(join(dir, '_app'));
      if (version !== undefined) writeFileSync(join(dir, '_app', 'version.json'), JSON.stringify({ version }));
      return dir;
    };
    expect(isV3WebBuild(build('3.1.0'))).toBe(true);
    expect(isV3WebBuild(build('2.5.6'))).toBe(true);
    expect(isV3WebBuild(build('1795760944913'))).toBe(false);
    expect(isV3WebBuild(build('1.100.0'))).toBe(false);
    expect(isV3WebBuild(build(undefined))).toBe(false);
  });
});

describe('the app-route rule the local server and CloudFront share', () => {
  it('sends app routes to the shell and nothing else', () => {
    for (const path of [
      '/',
      '/photos',
      '/photos/2f0c',
      '/albums/abc',
      '/share/Key-with_chars',
      '/people/x/photos/y',
      '/auth/login',
      '/admin/users',
    ])
      expect(isAppRoute(path), path).toBe(true);
    for (const path of [
      '/api',
      '/api/',
      '/api/photos',
      '/_app',
      '/_app/immutable/x.js',
      '/_app/version.json',
      '/favicon.ico',
      '/manifest.json',
      '/.well-known/immich',
      '/custom.css',
    ])
      expect(isAppRoute(path), path).toBe(false);
  });
});

describe('the local server with a web build', () => {
  let dir: string;
  let server: LocalServer;
  let origin: string;
  beforeAll(async () => {
    dir = standInBuild();
    server = createLocalServer({ webDir: dir });
    origin = await listen(server);
  });
  afterAll(async () => {
    await server.mediaIdle();
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const expectSecurityHeaders = (response: Response) => {
    for (const [name, value] of Object.entries(securityHeaders)) expect(response.headers.get(name), name).toBe(value);
  };

  it('answers the app’s routes with its shell, never cached, with the security headers', async () => {
    for (const path of ['/', '/photos', '/photos/2f0c?x=1', '/albums/abc', '/people/p1/photos/a1', '/auth/login']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expectSecurityHeaders(response);
      expect(await response.text()).toBe(shell);
    }
    const head = await fetch(`${origin}/photos`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(shell)));
  });

  it('serves the build’s files: fingerprinted ones for a year, precompressed when accepted, 304 on a match', async () => {
    const path = `${origin}/_app/immutable/entry/start.Ab12Cd.js`;
    const plain = await fetch(path, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe(immutableCacheControl);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    expect(await plain.text()).toBe(script);

    // Raw bytes (node:http, which does not decode) to see the coding the server chose.
    const raw = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(raw.body).toString()).toBe(script);

    const etag = plain.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    for (const [file, type] of [
      ['/manifest.json', 'application/json; charset=utf-8'],
      ['/_app/version.json', 'application/json; charset=utf-8'],
      ['/favicon.ico', 'image/x-icon'],
    ] as const) {
      const response = await fetch(`${origin}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe(type);
      expect(response.headers.get('cache-control'), file).toBe('no-cache');
      expectSecurityHeaders(response);
    }
  });

  it('answers a missing file 404, never the shell, and nothing outside the build', async () => {
    // A NUL byte (`%00`) is no file name either: a 404, not the file system's error as a 500.
    for (const path of [
      '/_app/immutable/entry/gone.Zz99.js',
      '/favicon-missing.png',
      '/robots.txt',
      '/_app/immutable',
      '/a%00.js',
      '/_app/%00',
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('stand-in');
    }
    // A file beside the build, asked for with `..` as sent on the wire (fetch would resolve it).
    const secret = `${basename(dir)}.secret.txt`;
    writeFileSync(join(dir, '..', secret), 'outside');
    try {
      for (const path of [`/../${secret}`, `/..%2f${secret}`, `/_app/../../${secret}`, `/%2e%2e/${secret}`]) {
        const { status, body } = await rawGet(`${origin}${path}`);
        expect(status, path).toBe(404);
        expect(body.toString(), path).not.toContain('outside');
      }
    } finally {
      rmSync(join(dir, '..', secret), { force: true });
    }
  });

  it('answers a share page with the app and the link’s Open Graph tags, never stored; a page below a link is the app', async () => {
    const apiKey = await signedInAdmin();
    const photo = await uploadPhoto(origin, apiKey, 'shared.jpg');
    const created = await fetch(`${origin}/api/shared-link`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'INDIVIDUAL', assetIds: [photo], description: 'From the trip' }),
    });
    const { key } = (await created.json()) as { key: string };
    const response = await fetch(`${origin}/share/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(response);
    const html = await response.text();
    expect(html).toContain('<meta property="og:title" content="Public Share" />');
    expect(html).toContain('<meta property="og:description" content="From the trip" />');
    // Absolute, as a chat app fetches it without the page: the origin the page was reached at.
    expect(html).toContain(`<meta property="og:image" content="${origin}/api/asset/thumbnail/${photo}?key=${key}" />`);
    expect(html).toContain('stand-in app shell');
    // The picture it names is there for anyone with the link, once its previews are made.
    await server.mediaIdle();
    const image = await fetch(`${origin}/api/asset/thumbnail/${photo}?key=${key}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    for (const path of [`/share/${key}/photos/${photo}`, '/share/unknown-key']) {
      const plain = await fetch(`${origin}${path}`);
      expect(plain.status, path).toBe(200);
      expect(await plain.text(), path).toBe(shell);
    }
  });

  it('answers a custom URL (/s/<slug>, Immich v3’s) with the app and its link’s tags, the picture reached with the slug', async () => {
    const apiKey = await signedInAdmin();
    const photo = await uploadPhoto(origin, apiKey, 'slugged.jpg', [30, 60, 90]);
    const created = await fetch(`${origin}/api/shared-links`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'INDIVIDUAL', assetIds: [photo], description: 'Our trip', slug: 'our.trip', password: '' }),
    });
    expect(created.status).toBe(201);
    // A dot in the slug: the page is still the link's (not a missing file of the build).
    const response = await fetch(`${origin}/s/our.trip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(response);
    const html = await response.text();
    expect(html).toContain('<meta property="og:description" content="Our trip" />');
    const image = `${origin}/api/asset/thumbnail/${photo}?slug=our.trip`;
    expect(html).toContain(`<meta property="og:image" content="${image}" />`);
    await server.mediaIdle();
    const picture = await fetch(image);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    for (const path of ['/s/no-such-slug', `/s/our.trip/photos/${photo}`]) {
      const plain = await fetch(`${origin}${path}`);
      expect(plain.status, path).toBe(200);
      expect(await plain.text(), path).toBe(shell);
    }
  });

  it('leaves the API as it is: its routes, its JSON 404s, and every method but GET outside /api', async () => {
    const ping = await fetch(`${origin}/api/server-info/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ res: 'pong' });
    const wellKnown = await fetch(`${origin}/.well-known/immich`);
    expect(await wellKnown.json()).toEqual({ api: { endpoint: '/api' } });
    const css = await fetch(`${origin}/custom.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/photos'],
      ['GET', '/api/no/such/route.js'],
      ['POST', '/photos'],
      ['DELETE', '/albums/abc'],
    ] as const) {
      const response = await fetch(`${origin}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(await response.json(), `${method} ${path}`).toMatchObject({ error: 'Not Found', statusCode: 404 });
    }
  });
});

describe('the local server without a web build', () => {
  it('answers every path outside the API as before: the API’s JSON 404', async () => {
    const server = createLocalServer();
    const origin = await listen(server);
    try {
      for (const path of ['/', '/photos', '/_app/immutable/x.js', '/share/some-key']) {
        const response = await fetch(`${origin}${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.json(), path).toMatchObject({ statusCode: 404 });
      }
    } finally {
      await stop(server);
    }
  });
});

/** A socket.io client, by hand: Engine.IO v4 packets over the WebSocket Immich's apps open (credentials in its headers). */
const openSocket = (origin: string, headers: Record<string, string>) => {
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/api/socket.io/?EIO=4&transport=websocket`, { headers });
  const received: string[] = [];
  const waiters: (() => void)[] = [];
  let closed = false;
  socket.addEventListener('message', (event) => {
    const packet = String(event.data);
    if (packet === '2')
      socket.send('3'); // ping → pong
    else received.push(packet);
    for (const wake of waiters.splice(0)) wake();
  });
  socket.addEventListener('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  /** The next packet that starts with `prefix` (those before it are dropped), or `closed`. */
  const next = async (prefix: string): Promise<string> => {
    const deadline = Date.now() + hangGuard.wait;
    while (Date.now() < deadline) {
      const index = received.findIndex((packet) => packet.startsWith(prefix));
      if (index >= 0) return received.splice(0, index + 1).at(-1) ?? '';
      if (closed) return 'closed';
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 500);
      });
    }
    throw new Error(`no packet ${prefix} (received ${received.join(' | ')})`);
  };
  return { socket, next, send: (packet: string) => socket.send(packet) };
};

describe('the realtime socket Immich’s apps open (socket.io at /api/socket.io)', () => {
  let server: LocalServer;
  let origin: string;
  let apiKey: string;
  beforeAll(async () => {
    server = createLocalServer();
    origin = await listen(server);
    apiKey = await signedInAdmin();
  });
  afterAll(async () => {
    await server.mediaIdle();
    await stop(server);
  });

  it('signs a connection in with the request’s credentials, tells it the version, then its user’s uploads', async () => {
    const client = openSocket(origin, { 'x-api-key': apiKey });
    const open = JSON.parse((await client.next('0')).slice(1)) as Record<string, unknown>;
    expect(open).toEqual({ sid: expect.any(String), upgrades: [], pingInterval: 300_000, pingTimeout: 300_000, maxPayload: 1_000_000 });
    client.send('40');
    expect(await client.next('40')).toMatch(/^40\{"sid":".+"\}$/);
    expect(JSON.parse((await client.next('42')).slice(2))).toEqual(['on_server_version', { major: 1, minor: 100, patch: 0 }]);

    const id = await uploadPhoto(origin, apiKey, 'live.jpg');
    const [event, asset] = JSON.parse((await client.next('42')).slice(2)) as [
      string,
      { id: string; thumbhash: string | null; resized: boolean },
    ];
    expect(event).toBe('on_upload_success');
    // Sent once the previews are made, as Immich sends it: the timeline can show it at once.
    expect(asset).toMatchObject({ id, resized: true });
    expect(asset.thumbhash).toBeTruthy();
    client.socket.close();
  });

  it("speaks v3's version and asset to the v3 web app it serves", async () => {
    const build = standInBuild();
    writeFileSync(join(build, '_app', 'version.json'), '{"version":"3.1.0"}');
    const v3Server = createLocalServer({ webDir: build });
    const v3Origin = await listen(v3Server);
    const key = await signedInAdmin();
    const client = openSocket(v3Origin, { 'x-api-key': key });
    try {
      await client.next('0');
      client.send('40');
      await client.next('40');
      expect(JSON.parse((await client.next('42')).slice(2))).toEqual([
        'on_server_version',
        { major: 3, minor: 2, patch: 2, prerelease: null },
      ]);
      const id = await uploadPhoto(v3Origin, key, 'live-v3.jpg', [9, 99, 199]);
      const [event, asset] = JSON.parse((await client.next('42')).slice(2)) as [string, { id: string; visibility: string }];
      expect(event).toBe('on_upload_success');
      // v3's asset: its visibility (v1.100's has none).
      expect(asset).toMatchObject({ id, visibility: 'timeline' });
    } finally {
      client.socket.close();
      await v3Server.mediaIdle();
      await stop(v3Server);
      rmSync(build, { recursive: true, force: true });
    }
  });

  it('tells a connection without valid credentials so and closes it, as Immich does (credentials in the query are none)', async () => {
    for (const headers of [{}, { 'x-api-key': 'not-a-key' }] as Record<string, string>[]) {
      const client = openSocket(origin, headers);
      await client.next('0');
      client.send('40');
      expect(await client.next('40')).toMatch(/^40\{"sid":".+"\}$/);
      expect(await client.next('42')).toBe('42["error","unauthorized"]');
      expect(await client.next('41')).toBe('41');
      expect(await client.next('never')).toBe('closed');
    }
    const viaQuery = new WebSocket(`${origin.replace(/^http/, 'ws')}/api/socket.io/?EIO=4&transport=websocket&apiKey=${apiKey}`);
    const frames: string[] = [];
    viaQuery.addEventListener('message', (event) => frames.push(String(event.data)));
    await new Promise((resolve) => viaQuery.addEventListener('close', resolve));
    expect(frames.slice(1)).toEqual([expect.stringMatching(/^40/), '42["error","unauthorized"]', '41']);
  });
});
