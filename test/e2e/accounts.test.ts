import { changePassword, createApiKey, createUser, getMyUserInfo, isHttpError, login, signUpAdmin, validateAccessToken } from '@immich/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server.ts';

describe('accounts through @immich/sdk 1.100.0 and the local server', () => {
  const server = useServer();

  // Every test below signs in as this admin, so each can run on its own.
  beforeAll(async () => {
    const admin = await signUpAdmin(
      { signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Immich Admin' } },
      { baseUrl: server.baseUrl },
    );
    expect(admin).toMatchObject({ email: 'admin@immich.cloud', isAdmin: true, storageLabel: 'admin' });
  });

  it('logs the admin in, creates a user who changes password and makes an API key', async () => {
    const baseUrl = server.baseUrl;

    const adminLogin = await login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    const asAdmin = { baseUrl, headers: { Authorization: `Bearer ${adminLogin.accessToken}` } };
    expect(await validateAccessToken(asAdmin)).toEqual({ authStatus: true });

    const user = await createUser({ createUserDto: { email: 'user1@immich.cloud', password: 'password1', name: 'User 1' } }, asAdmin);
    expect(user).toMatchObject({ email: 'user1@immich.cloud', isAdmin: false, avatarColor: 'red' });

    const userLogin = await login({ loginCredentialDto: { email: 'user1@immich.cloud', password: 'password1' } }, { baseUrl });
    const asUser = { baseUrl, headers: { Authorization: `Bearer ${userLogin.accessToken}` } };
    expect(await changePassword({ changePasswordDto: { password: 'password1', newPassword: 'new-password-1' } }, asUser)).toMatchObject({
      id: user.id,
    });

    const { secret } = await createApiKey({ apiKeyCreateDto: { name: 'cli' } }, asUser);
    expect(await getMyUserInfo({ baseUrl, headers: { 'x-api-key': secret } })).toMatchObject({ id: user.id, email: 'user1@immich.cloud' });

    // The SDK surfaces Immich-shaped errors.
    const failure = await createUser({ createUserDto: { email: 'x@immich.cloud', password: 'p', name: 'X' } }, asUser).catch(
      (error: unknown) => error,
    );
    expect(isHttpError(failure) && failure.status).toBe(403);
    expect(isHttpError(failure) && failure.data).toEqual({ message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 });
  });

  it('sets the login cookies over HTTP, and the cookie alone authenticates', async () => {
    const response = await fetch(`${server.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@immich.cloud', password: 'password' }),
    });
    expect(response.status).toBe(201);
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(3);
    const access = cookies[0]?.split(';')[0] ?? '';
    const me = await fetch(`${server.baseUrl}/user/me`, { headers: { cookie: access } });
    expect(await me.json()).toMatchObject({ email: 'admin@immich.cloud' });
  });

  it('answers malformed JSON with an Immich-shaped 400', async () => {
    const response = await fetch(`${server.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'Bad Request', statusCode: 400 });
  });
});
