import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createApiKeyHandler } from '#functions/api-key/create-api-key.ts';
import { handler as deleteApiKey } from '#functions/api-key/delete-api-key.ts';
import { handler as getApiKey } from '#functions/api-key/get-api-key.ts';
import { handler as getApiKeys } from '#functions/api-key/get-api-keys.ts';
import { handler as updateApiKey } from '#functions/api-key/update-api-key.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { bearer, createApiKey, setupAccounts } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';

let accounts: Awaited<ReturnType<typeof setupAccounts>>;
beforeAll(async () => {
  accounts = await setupAccounts();
});

const byId = (handler: typeof getApiKey, method: string, id: string, token: string) =>
  invoke(handler, { method, path: `/api/api-key/${id}`, pathParameters: { id }, headers: bearer(token) });

describe('API keys', () => {
  it('creates a key named "API Key" by default, returning the secret once', async () => {
    const reply = await invoke(createApiKeyHandler, {
      method: 'POST',
      path: '/api/api-key',
      headers: bearer(accounts.user1.accessToken),
      body: {},
    });
    expect(reply).toMatchObject({
      status: 201,
      body: { secret: expect.stringMatching(/^\w{30,43}$/), apiKey: { id: expect.any(String), name: 'API Key' } },
    });
    expect(Object.keys(reply.body.apiKey).sort()).toEqual(['createdAt', 'id', 'name', 'updatedAt']);
  });

  it('rejects an empty name', async () => {
    const reply = await invoke(createApiKeyHandler, {
      method: 'POST',
      path: '/api/api-key',
      headers: bearer(accounts.user1.accessToken),
      body: { name: '' },
    });
    expect(reply).toMatchObject({ status: 400, body: { message: ['name should not be empty'] } });
  });

  it("authenticates with x-api-key or ?apiKey=, as the key's own user", async () => {
    const key = await createApiKey(accounts.user1.accessToken, 'cli');
    for (const call of [{ headers: { 'x-api-key': key.secret } }, { query: { apiKey: key.secret } }]) {
      expect(await invoke(getMyUserInfo, { path: '/api/user/me', ...call })).toMatchObject({
        status: 200,
        body: { id: accounts.user1.id },
      });
    }
  });

  it("lists only the caller's keys, newest first", async () => {
    await createApiKey(accounts.user1.accessToken, 'first user key');
    const mine = await createApiKey(accounts.user2.accessToken, 'second user key');
    const reply = await invoke(getApiKeys, { path: '/api/api-key', headers: bearer(accounts.user2.accessToken) });
    expect(reply.status).toBe(200);
    expect(reply.body.map((key: { id: string }) => key.id)).toEqual([mine.apiKey.id]);
    const user1Keys = (await invoke(getApiKeys, { path: '/api/api-key', headers: bearer(accounts.user1.accessToken) })).body;
    expect(user1Keys.length).toBeGreaterThanOrEqual(1);
    expect(user1Keys.map((key: { id: string }) => key.id)).not.toContain(mine.apiKey.id);
  });

  it("never shows or deletes another user's key", async () => {
    const theirs = await createApiKey(accounts.user2.accessToken, 'theirs');
    for (const [handler, method] of [
      [getApiKey, 'GET'],
      [deleteApiKey, 'DELETE'],
    ] as const) {
      expect(await byId(handler, method, theirs.apiKey.id, accounts.user1.accessToken)).toMatchObject({
        status: 400,
        body: { message: 'API Key not found', error: 'Bad Request', statusCode: 400 },
      });
    }
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': theirs.secret } })).status).toBe(200);
  });

  it('deletes a key, after which it no longer authenticates', async () => {
    const key = await createApiKey(accounts.user1.accessToken, 'temporary');
    expect(await byId(getApiKey, 'GET', key.apiKey.id, accounts.user1.accessToken)).toMatchObject({
      status: 200,
      body: { name: 'temporary' },
    });
    expect((await byId(deleteApiKey, 'DELETE', key.apiKey.id, accounts.user1.accessToken)).status).toBe(200);
    expect(await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key.secret } })).toMatchObject({
      status: 401,
      body: { message: 'Invalid API key' },
    });
    expect((await byId(deleteApiKey, 'DELETE', key.apiKey.id, accounts.user1.accessToken)).status).toBe(400);
  });

  it('renames a key (PUT /api-key/:id); its secret still works; another user’s key, an empty name: 400', async () => {
    const key = await createApiKey(accounts.user1.accessToken, 'before');
    const rename = (id: string, body: unknown, token = accounts.user1.accessToken) =>
      invoke(updateApiKey, { method: 'PUT', path: `/api/api-key/${id}`, pathParameters: { id }, headers: bearer(token), body });
    const before = (await byId(getApiKey, 'GET', key.apiKey.id, accounts.user1.accessToken)).body;
    const reply = await rename(key.apiKey.id, { name: 'after' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: key.apiKey.id, name: 'after', createdAt: before.createdAt });
    expect(reply.body.updatedAt >= before.updatedAt).toBe(true);
    expect((await byId(getApiKey, 'GET', key.apiKey.id, accounts.user1.accessToken)).body.name).toBe('after');
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: { 'x-api-key': key.secret } })).status).toBe(200);
    expect((await rename(key.apiKey.id, { name: 'x' }, accounts.user2.accessToken)).body).toEqual({
      message: 'API Key not found',
      error: 'Bad Request',
      statusCode: 400,
    });
    expect((await rename(key.apiKey.id, { name: '' })).body.message).toEqual(['name should not be empty']);
    expect((await rename(key.apiKey.id, {})).status).toBe(400);
  });

  it('rejects an id that is not a UUID', async () => {
    expect(await byId(getApiKey, 'GET', 'invalid-uuid', accounts.user1.accessToken)).toMatchObject({
      status: 400,
      body: { message: ['id must be a UUID'] },
    });
  });
});
