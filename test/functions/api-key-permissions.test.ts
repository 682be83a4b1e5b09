import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as updateUserV1 } from '#functions/user/update-user.ts';
import { handler as createKeyV3 } from '#functions/v3/api-key/create-api-key.ts';
import { handler as getKeysV3 } from '#functions/v3/api-key/get-api-keys.ts';
import { handler as getMyKeyV3 } from '#functions/v3/api-key/get-my-api-key.ts';
import { handler as updateKeyV3 } from '#functions/v3/api-key/update-api-key.ts';
import { localRoutes, type Route, routes, webRoutes } from '#infra/routes.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';
import { apiKeyPermissions } from '#shared/model/api-key-permission.ts';
import { bearer, createApiKey, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

type Loaded = { route: Route; handler: Parameters<typeof invoke>[0] & { access: string; permission?: string | false } };
const root = join(import.meta.dirname, '..', '..');
/** Every route: the API's, the local server's and the web app's (infra/routes.ts). */
const load = (): Promise<Loaded[]> =>
  Promise.all(
    [...routes, ...localRoutes, ...webRoutes].map(async (route) => ({
      route,
      handler: (await import(join(root, route.entry))).handler as Loaded['handler'],
    })),
  );

/** Runs `fn` over `items`, `width` at a time. */
const inPool = async <T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> => {
  let index = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (index < items.length) await fn(items[index++] as T);
    }),
  );
};

const named = (route: Route) => `${route.generation ?? 'v1'} ${route.operationId}`;

const keyWith = async (token: string, permissions: string[]): Promise<string> => {
  const reply = await invoke(createKeyV3, { method: 'POST', path: '/api/api-keys', headers: bearer(token), body: { permissions } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.secret;
};

/** A permission other than `permission` (and other than `all`). */
const another = (permission: string | false): string => (permission === 'activity.read' ? 'tag.read' : 'activity.read');

/**
 * A call of a route with placeholder path parameters (UUIDs, or `bad` ones that are none): the
 * permission is checked before anything is read or validated, as Immich's guard does.
 */
const call = (route: Route, headers: Record<string, string>, params: 'uuid' | 'bad' = 'uuid') => {
  const pathParameters = Object.fromEntries(
    [...route.path.matchAll(/\{(\w+)\+?\}/g)].map(([, name]) => [name, params === 'uuid' ? randomUUID() : 'not-a-uuid']),
  );
  const path = route.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => pathParameters[name] ?? '');
  return { method: route.method === 'ANY' ? 'GET' : route.method, path, pathParameters, headers, body: {} };
};

describe('API-key permissions, on every route of both generations (from the route table)', () => {
  it('declares on every signed-in route the permission Immich requires, `all` where Immich names none', async () => {
    const signedIn = (await load()).filter(({ handler }) => handler.access !== 'public');
    for (const { route, handler } of signedIn) {
      expect(handler.permission === false || apiKeyPermissions.includes(handler.permission as never), route.operationId).toBe(true);
    }
    const of = (op: string, generation?: 'v3') =>
      signedIn.find(({ route }) => route.operationId === op && route.generation === generation)?.handler.permission;
    expect([of('uploadFile'), of('getMyApiKey', 'v3'), of('logout'), of('createUser'), of('getApiKeys', 'v3')]).toEqual([
      'asset.upload',
      false,
      'all',
      'adminUser.create',
      'apiKey.read',
    ]);
    // Immich 3.2's `@Authenticated()` without a permission: a key needs `all` (issue 49, Low 3).
    expect([of('getAuthStatus', 'v3'), of('unlockAuthSession', 'v3'), of('lockAuthSession', 'v3')]).toEqual(['all', 'all', 'all']);
  });

  it('lets any key through only where Immich does (`permission: false`), so a new route cannot skip the check', async () => {
    const anyKey = (await load()).filter(({ handler }) => handler.access !== 'public' && handler.permission === false);
    // Immich v3.2's three: the key's own details, the token check and the workflow triggers.
    expect(anyKey.map(({ route }) => named(route)).sort()).toEqual(['v1 validateAccessToken', 'v3 getMyApiKey', 'v3 getWorkflowTriggers']);
  });

  it('needs no caller only on the routes meant to be open (sign-in and OAuth, server facts, public config, pages and signed part URLs)', async () => {
    const open = (await load()).filter(({ handler }) => handler.access === 'public');
    expect(open.map(({ route }) => named(route)).sort()).toEqual(
      [
        'v1 wellKnown',
        'v1 getCustomCss',
        'v1 notFound',
        'v1 getUploadSessionsApi',
        'v1 signUpAdmin',
        'v1 login',
        'v1 redirectOAuthToMobile',
        'v1 startOAuth',
        'v1 finishOAuth',
        'v1 pingServer',
        'v1 getServerVersion',
        'v1 getSupportedMediaTypes',
        'v1 getServerConfig',
        'v1 getServerFeatures',
        'v1 getTheme',
        'v1 putUploadPart',
        'v1 renderSharePage',
        'v1 renderSlugPage',
        'v3 getPublicConfig',
        'v3 getPublicConfigDefaults',
        'v3 startDatabaseRestoreFlow',
        'v3 getMaintenanceStatus',
        'v3 maintenanceLogin',
        'v3 pingServer',
        'v3 getServerVersion',
        'v3 getServerFeatures',
        'v3 getServerConfig',
        'v3 getSupportedMediaTypes',
        'v3 getVersionHistory',
      ].sort(),
    );
  });

  it("refuses a key without the route's permission with Immich's 403, in the route's generation's shape, and lets a key with it through", async () => {
    const loaded = (await load()).filter(({ handler }) => handler.access !== 'public');
    // Keys are cached by owner and permission: a route's call may sign its user's sessions out, never its keys.
    const cache = new Map<string, string>();
    const key = async (admin: boolean, permissions: string[]) => {
      const id = `${admin}:${permissions.join()}`;
      if (!cache.has(id)) cache.set(id, await keyWith(admin ? accounts.admin.accessToken : accounts.user1.accessToken, permissions));
      return cache.get(id) as string;
    };
    for (const { handler } of loaded) {
      const admin = handler.access === 'admin';
      const required = handler.permission ?? 'all';
      await key(admin, [another(required)]);
      if (required !== false) await key(admin, [required]);
    }
    // Four routes at a time: the calls wait on DynamoDB Local; keys are never ended by a route's call with a placeholder id.
    await inPool(loaded, 4, async ({ route, handler }) => {
      const admin = handler.access === 'admin';
      const required = handler.permission ?? 'all';
      const without = await invoke(handler, call(route, { 'x-api-key': await key(admin, [another(required)]) }, 'bad'));
      if (required === false) {
        expect(String(without.body?.message ?? ''), named(route)).not.toMatch(/Missing required permission/);
        return;
      }
      const message = `Missing required permission: ${required}`;
      expect(without.status, named(route)).toBe(403);
      expect(without.body, named(route)).toEqual(
        route.generation === 'v3' ? { message } : { message, error: 'Forbidden', statusCode: 403 },
      );
      const withIt = await invoke(handler, call(route, { 'x-api-key': await key(admin, [required]) }));
      expect(String(withIt.body?.message ?? ''), named(route)).not.toMatch(/Missing required permission/);
      expect(withIt.status, named(route)).not.toBe(401);
    });
  });
});

describe('v3 API keys', () => {
  it('creates a key with its permissions, answers it as 3.2 does, and reads it back by the key itself', async () => {
    const reply = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: bearer(accounts.user2.accessToken),
      body: { name: 'cli', permissions: ['asset.upload', 'user.read'] },
    });
    expect(reply.status).toBe(201);
    const { secret, apiKey, ...flat } = reply.body;
    expect(apiKey).toEqual(flat);
    expect(apiKey).toMatchObject({ name: 'cli', permissions: ['asset.upload', 'user.read'] });
    expect(typeof secret).toBe('string');
    const me = await invoke(getMyKeyV3, { path: '/api/api-keys/me', headers: { 'x-api-key': secret } });
    expect(me).toMatchObject({ status: 200, body: apiKey });
  });

  it('refuses /api-keys/me to a session, and a key that grants more than the caller holds', async () => {
    expect(await invoke(getMyKeyV3, { path: '/api/api-keys/me', headers: bearer(accounts.user2.accessToken) })).toMatchObject({
      status: 403,
      body: { message: 'Not authenticated with an API Key' },
    });
    const narrow = await keyWith(accounts.user2.accessToken, ['apiKey.create', 'asset.read']);
    const wider = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: { 'x-api-key': narrow },
      body: { permissions: ['asset.read', 'asset.delete'] },
    });
    expect(wider).toMatchObject({ status: 400, body: { message: 'Cannot grant permissions you do not have' } });
    const same = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: { 'x-api-key': narrow },
      body: { permissions: ['asset.read'] },
    });
    expect(same.status).toBe(201);
  });

  it("answers a bad request in v3's validation shape", async () => {
    const reply = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: bearer(accounts.user2.accessToken),
      body: { permissions: ['asset.read', 'asset.fly'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: 'Validation failed', errors: [{ path: ['permissions', 1], message: 'Invalid permission' }] });
    const empty = await invoke(createKeyV3, {
      method: 'POST',
      path: '/api/api-keys',
      headers: bearer(accounts.user2.accessToken),
      body: { permissions: [] },
    });
    expect(empty.body.errors).toEqual([{ path: ['permissions'], message: 'permissions must contain at least 1 element' }]);
  });

  it('changes a key’s permissions, which bind its next request', async () => {
    const secret = await keyWith(accounts.user2.accessToken, ['apiKey.read']);
    const me = await invoke(getMyKeyV3, { path: '/api/api-keys/me', headers: { 'x-api-key': secret } });
    expect((await invoke(getKeysV3, { path: '/api/api-keys', headers: { 'x-api-key': secret } })).status).toBe(200);
    const updated = await invoke(updateKeyV3, {
      method: 'PUT',
      path: `/api/api-keys/${me.body.id}`,
      pathParameters: { id: me.body.id },
      headers: bearer(accounts.user2.accessToken),
      body: { permissions: ['asset.read'] },
    });
    expect(updated).toMatchObject({ status: 200, body: { name: 'API Key', permissions: ['asset.read'] } });
    expect(await invoke(getKeysV3, { path: '/api/api-keys', headers: { 'x-api-key': secret } })).toMatchObject({
      status: 403,
      body: { message: 'Missing required permission: apiKey.read' },
    });
  });

  it('reads v1.100’s keys, and keys stored before permissions existed, as holding `all`', async () => {
    const v1 = await createApiKey(accounts.user2.accessToken, 'v1 key');
    const listed = await invoke(getKeysV3, { path: '/api/api-keys', headers: bearer(accounts.user2.accessToken) });
    expect(listed.body.find((key: { id: string }) => key.id === v1.apiKey.id)?.permissions).toEqual(['all']);
    // An item as this server wrote it before permissions: the field absent from both items.
    const { hashSecret } = await import('#shared/core/crypto.ts');
    for (const key of [keys.apiKey(hashSecret(v1.secret)), keys.userApiKey(accounts.user2.id, v1.apiKey.id)]) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: 'REMOVE #p',
          ExpressionAttributeNames: { '#p': 'permissions' },
        }),
      );
    }
    expect(await invoke(getMyKeyV3, { path: '/api/api-keys/me', headers: { 'x-api-key': v1.secret } })).toMatchObject({
      status: 200,
      body: { id: v1.apiKey.id, permissions: ['all'] },
    });
  });

  it("lets an admin's key change another user through v1.100's PUT /user only with adminUser.update", async () => {
    const body = { id: accounts.user2.id, name: 'Renamed by a key' };
    const userUpdate = await keyWith(accounts.admin.accessToken, ['user.update']);
    expect(await invoke(updateUserV1, { method: 'PUT', path: '/api/user', headers: { 'x-api-key': userUpdate }, body })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to update this user' },
    });
    const adminUpdate = await keyWith(accounts.admin.accessToken, ['user.update', 'adminUser.update']);
    expect(await invoke(updateUserV1, { method: 'PUT', path: '/api/user', headers: { 'x-api-key': adminUpdate }, body })).toMatchObject({
      status: 200,
      body: { name: 'Renamed by a key' },
    });
  });
});
