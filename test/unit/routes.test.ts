import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '#infra/local/route-matcher.ts';
import { eventFunctions, functionName, localRoutes, routes, webRoutes } from '#infra/routes.ts';

const root = join(import.meta.dirname, '..', '..');
const handlerFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? handlerFiles(join(dir, entry.name)) : [relative(root, join(dir, entry.name))],
  );

describe('route table', () => {
  it('has exactly one route per file under functions/, and one file per route', () => {
    const entries = [...routes, ...localRoutes, ...webRoutes].map((route) => route.entry).concat(eventFunctions.map((fn) => fn.entry));
    expect(entries.sort()).toEqual(handlerFiles(join(root, 'functions')).sort());
  });

  it("groups its rows by area, in the order of Immich's controllers", () => {
    const areas = routes.map((route) => route.entry.split('/').slice(1, -1).join('/')).filter((area, i, all) => area !== all[i - 1]);
    // Immich's controllers by name (AppController's routes are `system` here), v1.100's then v3's.
    expect(areas).toEqual([
      'activity',
      'album',
      'api-key',
      'system',
      'asset',
      'audit',
      'auth',
      'download',
      'face',
      'job',
      'oauth',
      'partner',
      'person',
      'search',
      'server-info',
      'shared-link',
      'system-config',
      'tag',
      'trash',
      'user',
      'v3/api-key',
      'v3/activity',
      'v3/album',
      'v3/asset',
      'v3/auth',
      'v3/auth-admin',
      'v3/config',
      'v3/database-backup',
      'v3/duplicate',
      'v3/face',
      'v3/integrity',
      'v3/job',
      'v3/library',
      'v3/maintenance',
      'v3/map',
      'v3/memory',
      'v3/notification-admin',
      'v3/notification',
      'v3/partner',
      'v3/person',
      'v3/plugin',
      'v3/queue',
      'v3/search',
      'v3/server',
      'v3/session',
      'v3/shared-link',
      'v3/stack',
      'v3/sync',
      'v3/system-metadata',
      'v3/tag',
      'v3/timeline',
      'v3/user-admin',
      'v3/user',
      'v3/view',
      'v3/workflow',
    ]);
    expect(routes.filter((route) => route.entry.startsWith('functions/v3/')).every((route) => route.generation === 'v3')).toBe(true);
  });

  it('has unique function names (operation ids within a generation) and unique method + path pairs', () => {
    const all = [...routes, ...localRoutes, ...webRoutes];
    expect(new Set(all.map(functionName)).size).toBe(all.length);
    expect(functionName({ operationId: 'pingServer', generation: 'v3' })).toBe('v3-ping-server');
    expect(new Set(all.map((route) => `${route.method} ${route.path}`)).size).toBe(all.length);
  });

  it("points every row at a module that exports a handler function, of the row's generation (its errors' shape), sending realtime events exactly where the row says", async () => {
    for (const route of [...routes, ...localRoutes, ...webRoutes]) {
      const module = (await import(join(root, route.entry))) as { handler?: { generation?: string; realtime?: boolean } };
      expect(typeof module.handler, route.entry).toBe('function');
      expect(module.handler?.generation, route.entry).toBe(route.generation);
      // The row's `realtime` grants the posts (infra/cdk/function-roles.ts); the handler's `publish` makes them.
      if (!route.stream) expect(module.handler?.realtime === true, route.entry).toBe(route.realtime === true);
    }
    // Every handler module of the table (about 280), transformed and imported once: seconds on a busy 2-core machine.
  });

  it('gives the shared-link secret to every route a visitor may call (a password link is checked on each)', () => {
    const root = join(import.meta.dirname, '..', '..');
    const visited = routes.filter((route) => /access: '(shared|link-password)'/.test(readFileSync(join(root, route.entry), 'utf8')));
    expect(visited.length).toBeGreaterThanOrEqual(9);
    expect(visited.filter((route) => !route.secrets).map((route) => route.operationId)).toEqual([]);
  });

  it('keeps every API route under /api, except the discovery document, the theme’s stylesheet and the fallback', () => {
    const outside = routes.filter((route) => !route.path.startsWith('/api/')).map((route) => route.path);
    expect(outside.sort()).toEqual(['$default', '/.well-known/immich', '/custom.css']);
  });

  it('keeps the web routes (served beside a web build) outside /api, where the distribution sends them to the API', () => {
    expect(webRoutes.map((route) => route.path)).toEqual(['/share/{key+}', '/s/{slug+}']);
  });
});

describe('route matcher', () => {
  const match = createRouteMatcher([
    { operationId: 'byId', method: 'GET', path: '/api/shared-link/{id}', entry: 'x', data: 'none' },
    { operationId: 'me', method: 'GET', path: '/api/shared-link/me', entry: 'x', data: 'none' },
    { operationId: 'fallback', method: 'ANY', path: '$default', entry: 'x', data: 'none' },
  ]);

  it('prefers a literal segment over a parameter, as API Gateway does', () => {
    expect(match('GET', '/api/shared-link/me')?.route.operationId).toBe('me');
    expect(match('GET', '/api/shared-link/abc')).toMatchObject({ route: { operationId: 'byId' }, pathParameters: { id: 'abc' } });
  });

  it('decodes path parameters and sends other methods and paths to $default', () => {
    expect(match('GET', '/api/shared-link/a%20b')?.pathParameters).toEqual({ id: 'a b' });
    expect(match('POST', '/api/shared-link/me')).toMatchObject({ routeKey: '$default' });
    expect(match('GET', '/api/shared-link/me/extra')).toMatchObject({ routeKey: '$default' });
  });

  it('answers HEAD on a GET route that says so, under its own route key, as the stack routes it', () => {
    const files = createRouteMatcher([
      { operationId: 'view', method: 'GET', path: '/api/assets/{id}/thumbnail', entry: 'x', data: 'none', head: true },
      { operationId: 'info', method: 'GET', path: '/api/assets/{id}', entry: 'x', data: 'none' },
      { operationId: 'fallback', method: 'ANY', path: '$default', entry: 'x', data: 'none' },
    ]);
    expect(files('HEAD', '/api/assets/a/thumbnail')).toMatchObject({
      route: { operationId: 'view' },
      routeKey: 'HEAD /api/assets/{id}/thumbnail',
      pathParameters: { id: 'a' },
    });
    expect(files('GET', '/api/assets/a/thumbnail')?.routeKey).toBe('GET /api/assets/{id}/thumbnail');
    expect(files('HEAD', '/api/assets/a')?.routeKey).toBe('$default');
  });

  it('prefers the longer literal path among greedy routes, and a method over ANY', () => {
    // The deployed template's catch-all (`ANY /{proxy+}`) comes before the share pages' route.
    const greedy = createRouteMatcher([
      { operationId: 'proxy', method: 'ANY', path: '/{proxy+}', entry: 'x', data: 'none' },
      { operationId: 'anyShare', method: 'ANY', path: '/share/{key+}', entry: 'x', data: 'none' },
      { operationId: 'share', method: 'GET', path: '/share/{key+}', entry: 'x', data: 'none' },
    ]);
    expect(greedy('GET', '/share/abc/photos/1')).toMatchObject({
      route: { operationId: 'share' },
      pathParameters: { key: 'abc/photos/1' },
    });
    expect(greedy('POST', '/share/abc')?.route.operationId).toBe('anyShare');
    expect(greedy('GET', '/shared')?.route.operationId).toBe('proxy');
  });
});
