import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as changePassword } from '#functions/auth/change-password.ts';
import { handler as getAuthDevices } from '#functions/auth/get-auth-devices.ts';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as logout } from '#functions/auth/logout.ts';
import { handler as logoutAuthDevice } from '#functions/auth/logout-auth-device.ts';
import { handler as logoutAuthDevices } from '#functions/auth/logout-auth-devices.ts';
import { handler as signUpAdminHandler } from '#functions/auth/sign-up-admin.ts';
import { handler as validateAccessToken } from '#functions/auth/validate-access-token.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { UserResponseDto } from '#shared/dto/v1/user.response.ts';
import { bearer, createApiKey, createUser, ensureAdmin, fixtures, login } from '../support/accounts.ts';
import { invoke } from '../support/invoke.ts';
import { countRoundTrips } from '../support/round-trips.ts';

const signUp = (body: unknown) => invoke(signUpAdminHandler, { method: 'POST', path: '/api/auth/admin-sign-up', body });
const loginCall = (body: unknown, headers: Record<string, string> = {}) =>
  invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body, headers });
const me = (headers: Record<string, string>) => invoke(getMyUserInfo, { path: '/api/user/me', headers });

describe('POST /auth/admin-sign-up', () => {
  it.each([
    ['an email address', { password: 'password', name: 'Immich Admin' }, ['email should not be empty', 'email must be an email']],
    ['a password', { email: 'admin@immich.cloud', name: 'Immich Admin' }, ['password should not be empty', 'password must be a string']],
    ['a name', { email: 'admin@immich.cloud', password: 'password' }, ['name should not be empty', 'name must be a string']],
    ['a valid email', { email: 'immich', password: 'password', name: 'Immich Admin' }, ['email must be an email']],
  ])('requires %s', async (_what, body, message) => {
    expect(await signUp(body)).toMatchObject({ status: 400, body: { message, error: 'Bad Request', statusCode: 400 } });
  });

  it('signs up the admin, lower-casing the email, with Immich defaults', async () => {
    const reply = await signUp({ ...fixtures.admin, email: 'aDmIn@IMMICH.cloud' });
    expect(reply.status).toBe(201);
    expect(v.parse(UserResponseDto, reply.body)).toEqual({
      id: expect.any(String),
      email: 'admin@immich.cloud',
      name: 'Immich Admin',
      storageLabel: 'admin',
      profileImagePath: '',
      avatarColor: 'orange',
      shouldChangePassword: true,
      isAdmin: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deletedAt: null,
      oauthId: '',
      memoriesEnabled: true,
      quotaSizeInBytes: null,
      quotaUsageInBytes: 0,
      status: 'active',
    });
  });

  it('does not allow a second admin to sign up', async () => {
    await ensureAdmin();
    expect(await signUp({ email: 'other@immich.cloud', password: 'password', name: 'Other' })).toMatchObject({
      status: 400,
      body: { message: 'The server already has an admin', error: 'Bad Request', statusCode: 400 },
    });
  });
});

describe('POST /auth/login', () => {
  beforeAll(ensureAdmin);

  it('rejects an incorrect password and an unknown email alike', async () => {
    for (const body of [
      { ...fixtures.admin, password: 'wrong' },
      { email: 'nobody@immich.cloud', password: 'password' },
    ]) {
      expect(await loginCall(body)).toMatchObject({
        status: 401,
        body: { message: 'Incorrect email or password', error: 'Unauthorized', statusCode: 401 },
      });
    }
  });

  it('makes the same DynamoDB calls for an unknown email as for a wrong password', async () => {
    await loginCall({ email: 'warm@immich.cloud', password: 'x' }); // the config cache and decoy hash are warm
    const unknown = await countRoundTrips(() => loginCall({ email: 'nobody@immich.cloud', password: 'password' }));
    const wrong = await countRoundTrips(() => loginCall({ ...fixtures.admin, password: 'wrong' }));
    expect(unknown).toEqual(['GetItemCommand', 'GetItemCommand']);
    expect(wrong).toEqual(unknown);
  });

  it.each([
    ['null email', { email: null, password: 'password' }],
    ['null password', { email: 'admin@immich.cloud', password: null }],
  ])('does not allow %s', async (_what, body) => {
    expect((await loginCall(body)).status).toBe(400);
  });

  // Immich v1.100's own e2e expectation (e2e/src/responses.ts, `loginResponseDto.admin`), asserted
  // with supertest, which asks for no JSON: v1.100's LoginResponseDto, key by key.
  const v1Login = {
    accessToken: expect.stringMatching(/^\w{30,43}$/), // 32 random bytes in base64 without + / =
    userId: expect.any(String),
    userEmail: 'admin@immich.cloud',
    name: 'Immich Admin',
    isAdmin: true,
    profileImagePath: '',
    shouldChangePassword: true,
  };

  it("accepts a correct password: 201, the login response and Immich's three cookies", async () => {
    const reply = await loginCall({ email: 'ADMIN@immich.cloud', password: 'password' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual(v1Login);
    const token = reply.body.accessToken;
    expect(reply.cookies).toEqual([
      `immich_access_token=${token}; HttpOnly; Path=/; Max-Age=34560000; SameSite=Lax;`,
      'immich_auth_type=password; HttpOnly; Path=/; Max-Age=34560000; SameSite=Lax;',
      'immich_is_authenticated=true; Path=/; Max-Age=34560000; SameSite=Lax;',
    ]);
  });

  it("answers each generation's client the login answer of its generation where the request tells (docs/immich-compatibility.md)", async () => {
    const v3Login = { ...v1Login, isOnboarded: false };
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
    const json = { accept: 'application/json' };
    const cases: [string, Record<string, string>, 'v1' | 'v3', ('v1' | 'v3')?][] = [
      ['either SDK (both ask for JSON): v3’s, which v1.100’s clients read too', json, 'v3'],
      ['the 3.x mobile app', { ...json, 'user-agent': 'immich-android/3.1.0' }, 'v3'],
      ['the v1.100 mobile app (Dart’s User-Agent)', { ...json, 'user-agent': 'Dart/3.3 (dart:io)' }, 'v1'],
      ['a browser, the v1.100 web app served', { ...json, 'user-agent': browser }, 'v1'],
      ['a browser, the v3 web app served', { ...json, 'user-agent': browser }, 'v3', 'v3'],
      ['a request asking no JSON (v1.100’s e2e suite, curl)', { accept: '*/*' }, 'v1'],
    ];
    const served = process.env.WEB_GENERATION;
    for (const [who, headers, shape, web] of cases) {
      process.env.WEB_GENERATION = web ?? 'v1';
      try {
        const reply = await loginCall(fixtures.admin, headers);
        expect(reply.body, who).toEqual(shape === 'v1' ? v1Login : v3Login);
      } finally {
        if (served === undefined) delete process.env.WEB_GENERATION;
        else process.env.WEB_GENERATION = served;
      }
    }
  });

  it('marks the cookies Secure behind HTTPS', async () => {
    const reply = await loginCall(fixtures.admin, { 'x-forwarded-proto': 'https' });
    expect(reply.cookies[0]).toMatch(/; HttpOnly; Secure; Path=\//);
    expect(reply.cookies[2]).toBe('immich_is_authenticated=true; Secure; Path=/; Max-Age=34560000; SameSite=Lax;');
  });
});

describe('POST /auth/validateToken', () => {
  beforeAll(ensureAdmin);

  it('rejects an invalid token', async () => {
    expect(
      await invoke(validateAccessToken, { method: 'POST', path: '/api/auth/validateToken', headers: { authorization: 'Bearer 123' } }),
    ).toMatchObject({
      status: 401,
      body: { message: 'Invalid user token', error: 'Unauthorized', statusCode: 401 },
    });
  });

  it('accepts a valid one', async () => {
    const { accessToken } = await login(fixtures.admin);
    expect(
      await invoke(validateAccessToken, { method: 'POST', path: '/api/auth/validateToken', headers: bearer(accessToken) }),
    ).toMatchObject({
      status: 200,
      body: { authStatus: true },
    });
  });
});

describe('POST /auth/change-password', () => {
  let admin: { accessToken: string };
  beforeAll(async () => {
    await ensureAdmin();
    admin = await login(fixtures.admin);
    await createUser(admin.accessToken, { email: 'changer@immich.cloud', password: 'password1', name: 'Changer' });
  });
  const change = (headers: Record<string, string>, body: unknown) =>
    invoke(changePassword, { method: 'POST', path: '/api/auth/change-password', headers, body });

  it('requires authentication', async () => {
    expect(await change({}, { password: 'password1', newPassword: 'Password1234' })).toMatchObject({
      status: 401,
      body: { message: 'Authentication required', error: 'Unauthorized', statusCode: 401 },
    });
  });

  it('requires the current password', async () => {
    const { accessToken } = await login({ email: 'changer@immich.cloud', password: 'password1' });
    expect(await change(bearer(accessToken), { password: 'wrong-password', newPassword: 'Password1234' })).toMatchObject({
      status: 400,
      body: { message: 'Wrong password', error: 'Bad Request', statusCode: 400 },
    });
  });

  it('requires a new password of at least 8 characters', async () => {
    const { accessToken } = await login({ email: 'changer@immich.cloud', password: 'password1' });
    expect(await change(bearer(accessToken), { password: 'password1', newPassword: 'short' })).toMatchObject({
      status: 400,
      body: { message: ['newPassword must be longer than or equal to 8 characters'] },
    });
  });

  it("changes the password, keeps the caller's session, ends the other sessions and keeps API keys", async () => {
    const credentials = { email: 'changer@immich.cloud', password: 'password1' };
    const caller = await login(credentials);
    const other = await login(credentials);
    const key = await createApiKey(caller.accessToken);

    const reply = await change(bearer(caller.accessToken), { password: 'password1', newPassword: 'Password1234' });
    expect(reply.status).toBe(200);
    expect(v.parse(UserResponseDto, reply.body)).toMatchObject({ email: 'changer@immich.cloud', shouldChangePassword: true });

    expect((await me(bearer(caller.accessToken))).status).toBe(200);
    expect(await me(bearer(other.accessToken))).toMatchObject({ status: 401, body: { message: 'Invalid user token' } });
    expect((await me({ 'x-api-key': key.secret })).status).toBe(200);

    expect((await loginCall(credentials)).status).toBe(401);
    expect((await loginCall({ ...credentials, password: 'Password1234' })).status).toBe(201);
  });

  it('works with an API key, ending every session', async () => {
    const credentials = { email: 'key-changer@immich.cloud', password: 'Password1234' };
    await createUser(admin.accessToken, { ...credentials, name: 'Key Changer' });
    const session = await login(credentials);
    const key = await createApiKey(session.accessToken);
    expect((await change({ 'x-api-key': key.secret }, { password: 'Password1234', newPassword: 'Password5678' })).status).toBe(200);
    expect((await me(bearer(session.accessToken))).status).toBe(401);
    expect((await me({ 'x-api-key': key.secret })).status).toBe(200);
  });
});

describe('POST /auth/logout', () => {
  beforeAll(ensureAdmin);

  it('requires authentication', async () => {
    expect((await invoke(logout, { method: 'POST', path: '/api/auth/logout' })).status).toBe(401);
  });

  it('logs the user out: ends the session and clears the cookies', async () => {
    const { accessToken } = await login(fixtures.admin);
    const reply = await invoke(logout, { method: 'POST', path: '/api/auth/logout', headers: bearer(accessToken) });
    expect(reply).toMatchObject({ status: 200, body: { successful: true, redirectUri: '/auth/login?autoLaunch=0' } });
    expect(reply.cookies).toEqual([
      'immich_access_token=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'immich_auth_type=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'immich_is_authenticated=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ]);
    expect(await me(bearer(accessToken))).toMatchObject({ status: 401, body: { message: 'Invalid user token' } });
  });
});

describe('auth devices (sessions)', () => {
  const devices = (token: string) => invoke(getAuthDevices, { path: '/api/auth/devices', headers: bearer(token) });
  const logoutDevice = (token: string, id: string) =>
    invoke(logoutAuthDevice, { method: 'DELETE', path: `/api/auth/devices/${id}`, pathParameters: { id }, headers: bearer(token) });
  const credentials = { email: 'devices@immich.cloud', password: 'password1' };
  beforeAll(async () => {
    await ensureAdmin();
    const { accessToken } = await login(fixtures.admin);
    await createUser(accessToken, { ...credentials, name: 'Devices' });
  });

  it('lists only my sessions, newest first, marking the current one', async () => {
    const first = await login(credentials);
    const second = await login(credentials);
    const reply = await devices(second.accessToken);
    expect(reply.status).toBe(200);
    expect(reply.body.length).toBeGreaterThanOrEqual(2);
    expect(reply.body.filter((d: { current: boolean }) => d.current)).toHaveLength(1);
    expect(reply.body[0]).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      current: true,
      deviceType: '',
      deviceOS: '',
    });
    const adminDevices = (await devices((await login(fixtures.admin)).accessToken)).body.map((d: { id: string }) => d.id);
    for (const device of reply.body) expect(adminDevices).not.toContain(device.id);
    expect(reply.body.map((d: { id: string }) => d.id)).toHaveLength(new Set(reply.body.map((d: { id: string }) => d.id)).size);
    expect((await me(bearer(first.accessToken))).status).toBe(200);
  });

  it("rejects an unknown device id, and another user's, with Immich's message", async () => {
    const mine = await login(credentials);
    const admin = await login(fixtures.admin);
    const adminDevice = (await devices(admin.accessToken)).body[0].id as string;
    for (const id of ['00000000-0000-4000-a000-000000000000', adminDevice]) {
      expect(await logoutDevice(mine.accessToken, id)).toMatchObject({
        status: 400,
        body: { message: 'Not found or no authDevice.delete access', error: 'Bad Request', statusCode: 400 },
      });
    }
    expect(await me(bearer(admin.accessToken))).toMatchObject({ status: 200 });
  });

  it('logs out one device: its token stops working', async () => {
    const target = await login(credentials);
    const caller = await login(credentials);
    const id = (await devices(target.accessToken)).body.find((d: { current: boolean }) => d.current).id as string;
    expect((await logoutDevice(caller.accessToken, id)).status).toBe(204);
    expect(await me(bearer(target.accessToken))).toMatchObject({ status: 401, body: { message: 'Invalid user token' } });
    expect((await me(bearer(caller.accessToken))).status).toBe(200);
  });

  it('logs out all other devices with 204, keeping only the current session', async () => {
    const other = await login(credentials);
    const caller = await login(credentials);
    expect(
      (await invoke(logoutAuthDevices, { method: 'DELETE', path: '/api/auth/devices', headers: bearer(caller.accessToken) })).status,
    ).toBe(204);
    const left = (await devices(caller.accessToken)).body;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
    expect((await me(bearer(other.accessToken))).status).toBe(401);
  });
});
