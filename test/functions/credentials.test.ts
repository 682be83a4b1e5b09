import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { routes } from '#infra/routes.ts';
import { hashSecret, newSecret } from '#shared/core/crypto.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as sessionRepo from '#shared/db/session.repository.ts';
import { bearer, createApiKey, fixtures, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
let apiKey: string;
beforeAll(async () => {
  accounts = await setupAccounts();
  apiKey = (await createApiKey(accounts.user1.accessToken)).secret;
});

const me = (call: { headers?: Record<string, string>; query?: Record<string, string> }) =>
  invoke(getMyUserInfo, { path: '/api/user/me', ...call });

describe('where credentials are read from', () => {
  it('accepts a session token from Bearer (any case), the cookie, x-immich-user-token, x-immich-session-token, ?sessionKey= and v1.100’s ?userToken=', async () => {
    const token = accounts.user1.accessToken;
    const calls: { headers?: Record<string, string>; query?: Record<string, string> }[] = [
      { headers: { authorization: `bearer ${token}` } },
      { headers: { cookie: `other=1; immich_access_token=${token}` } },
      { headers: { 'x-immich-user-token': token } },
      { headers: { 'x-immich-session-token': token } },
      { query: { sessionKey: token } },
      { query: { userToken: token } },
    ];
    for (const call of calls) expect(await me(call), JSON.stringify(call)).toMatchObject({ status: 200, body: { id: accounts.user1.id } });
  });

  it('takes the first session token in Immich’s order: user-token header, session-token header, ?sessionKey=, ?userToken=, Bearer, cookie', async () => {
    // Each source in turn holds user1's token while every later one holds user2's: the earlier one wins.
    const [one, two] = [accounts.user1.accessToken, accounts.user2.accessToken];
    const sources: ((token: string) => { headers?: Record<string, string>; query?: Record<string, string> })[] = [
      (token) => ({ headers: { 'x-immich-user-token': token } }),
      (token) => ({ headers: { 'x-immich-session-token': token } }),
      (token) => ({ query: { sessionKey: token } }),
      (token) => ({ query: { userToken: token } }),
      (token) => ({ headers: { authorization: `Bearer ${token}` } }),
      (token) => ({ headers: { cookie: `immich_access_token=${token}` } }),
    ];
    for (const index of sources.keys()) {
      const call = { headers: {}, query: {} } as { headers: Record<string, string>; query: Record<string, string> };
      for (const [later, each] of sources.entries()) {
        if (later < index) continue;
        const part = each(later === index ? one : two);
        Object.assign(call.headers, part.headers);
        Object.assign(call.query, part.query);
      }
      expect(await me(call), JSON.stringify(call)).toMatchObject({ status: 200, body: { id: accounts.user1.id } });
    }
    // A garbage ?sessionKey= is checked, never passed over for the valid cookie behind it.
    expect(await me({ headers: { cookie: `immich_access_token=${one}` }, query: { sessionKey: 'garbage' } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid user token' },
    });
  });

  it('reads a shared link’s slug after its key and before any session, as Immich; no link has one here', async () => {
    const token = accounts.user1.accessToken;
    for (const call of [
      { headers: { 'x-immich-share-slug': 'holiday', ...bearer(token) } },
      { headers: bearer(token), query: { slug: 'holiday' } },
    ])
      expect(await me(call)).toMatchObject({
        status: 401,
        body: { message: 'Invalid share slug', error: 'Unauthorized', statusCode: 401 },
      });
    expect(await me({ headers: { 'x-immich-share-key': 'x' }, query: { slug: 'holiday' } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid share key' },
    });
  });

  it.each([
    ['no credentials', {}, 'Authentication required'],
    ['a garbage token', { headers: { authorization: 'Bearer garbage' } }, 'Invalid user token'],
    ['a garbage API key', { headers: { 'x-api-key': 'garbage' } }, 'Invalid API key'],
    ['a share key (no link matches)', { query: { key: 'abc' } }, 'Invalid share key'],
    ['a garbage ?sessionKey= beside a valid API key', { query: { sessionKey: 'garbage', apiKey: 'x' } }, 'Invalid user token'],
  ])('answers %s with 401', async (_what, call, message) => {
    expect(await me(call)).toMatchObject({ status: 401, body: { message, error: 'Unauthorized', statusCode: 401 } });
  });

  it('checks only the first kind of credential found, never falling back', async () => {
    expect(await me({ headers: { authorization: 'Bearer garbage', 'x-api-key': apiKey } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid user token' },
    });
    expect(await me({ headers: { ...bearer(accounts.user1.accessToken), 'x-immich-share-key': 'x' } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid share key' },
    });
    expect(await me({ headers: bearer(accounts.user1.accessToken), query: { key: 'x' } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid share key' },
    });
  });

  it("refuses an expired session even before DynamoDB's TTL has deleted it", async () => {
    const token = newSecret();
    const past = new Date(Date.now() - 60_000).toISOString();
    await sessionRepo.create({
      id: '3f0c8a52-6b1e-4c7d-9a2f-5e8d1b4c7a90',
      pinExpiresAt: null,
      isPendingSyncReset: false,
      appVersion: null,
      tokenHash: hashSecret(token),
      userId: accounts.user1.id,
      email: fixtures.user1.email,
      isAdmin: false,
      userActive: true,
      deviceType: '',
      deviceOS: '',
      createdAt: past,
      updatedAt: past,
      ttl: Math.floor(Date.now() / 1000) - 1,
    });
    expect(await me({ headers: bearer(token) })).toMatchObject({ status: 401, body: { message: 'Invalid user token' } });
  });
});

describe('access levels declared by the handlers', () => {
  const root = join(import.meta.dirname, '..', '..');
  const load = async () =>
    Promise.all(
      routes.map(async (route) => ({
        route,
        handler: ((await import(join(root, route.entry))) as { handler: typeof getMyUserInfo & { access: string } }).handler,
      })),
    );

  it('every signed-in route answers 401 without credentials', async () => {
    for (const { route, handler } of (await load()).filter(({ handler }) => handler.access !== 'public')) {
      const reply = await invoke(handler, { method: route.method, path: route.path, body: {} });
      expect(reply, route.operationId).toMatchObject({ status: 401, body: { message: 'Authentication required' } });
    }
  });

  it('every admin route answers 403 to a user, with a session or an API key', async () => {
    const admin = (await load()).filter(({ handler }) => handler.access === 'admin');
    expect(admin.map(({ route }) => route.operationId)).toContain('createUser');
    for (const { route, handler } of admin) {
      for (const headers of [bearer(accounts.user1.accessToken), { 'x-api-key': apiKey }]) {
        const reply = await invoke(handler, { method: route.method, path: route.path, headers, body: {} });
        expect(reply, route.operationId).toMatchObject({ status: 403, body: { message: 'Forbidden resource' } });
      }
    }
  });
});

describe('secrets at rest', () => {
  it('stores passwords, session tokens and API keys only as hashes', async () => {
    // A test may read the whole table; request code never scans.
    const { Items = [] } = await db.send(new ScanCommand({ TableName: tableName }));
    const stored = JSON.stringify(Items);
    const secrets = [
      fixtures.admin.password,
      fixtures.user1.password,
      fixtures.user2.password,
      accounts.user1.accessToken,
      accounts.admin.accessToken,
      apiKey,
    ];
    for (const secret of secrets) expect(stored).not.toContain(`"${secret}"`);
    expect(stored).not.toContain(accounts.user1.accessToken);
    expect(stored).not.toContain(apiKey);
    expect(stored).toContain('$argon2id$v=19$m=19456,t=2,p=1$');
    expect(stored).toContain(hashSecret(accounts.user1.accessToken));
  });
});

describe('logs', () => {
  it('never contain a password, token or API key, even for failed and malformed requests', async () => {
    const { handler: loginHandler } = await import('#functions/auth/login.ts');
    const { handler: changePassword } = await import('#functions/auth/change-password.ts');
    const lines: string[] = [];
    const capture = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    const original = { log: console.log, error: console.error, warn: console.warn, info: console.info };
    const level = process.env.LOG_LEVEL;
    Object.assign(console, { log: capture, error: capture, warn: capture, info: capture });
    delete process.env.LOG_LEVEL;
    try {
      await invoke(loginHandler, {
        method: 'POST',
        path: '/api/auth/login',
        body: { email: fixtures.user1.email, password: 'not-the-password-xyz' },
      });
      await invoke(loginHandler, {
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        body: '{"password":"leaky-secret-123",',
      });
      await invoke(changePassword, {
        method: 'POST',
        path: '/api/auth/change-password',
        headers: bearer(accounts.user2.accessToken),
        body: { password: 'wrong-old-secret', newPassword: 'x' },
      });
      await me({ headers: { 'x-api-key': `${apiKey}-tampered` } });
      await me({ headers: bearer(`${accounts.user1.accessToken}x`) });
    } finally {
      Object.assign(console, original);
      process.env.LOG_LEVEL = level;
    }
    const logged = lines.join('\n');
    for (const secret of [
      'not-the-password-xyz',
      'leaky-secret-123',
      'wrong-old-secret',
      apiKey,
      accounts.user1.accessToken,
      accounts.user2.accessToken,
    ]) {
      expect(logged).not.toContain(secret);
    }
  });
});
