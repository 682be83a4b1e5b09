import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as loginHandler } from '#functions/auth/login.ts';
import { handler as logoutHandler } from '#functions/auth/logout.ts';
import { handler as finishOAuth } from '#functions/oauth/finish-o-auth.ts';
import { handler as linkOAuthAccount } from '#functions/oauth/link-o-auth-account.ts';
import { handler as redirectOAuthToMobile } from '#functions/oauth/redirect-o-auth-to-mobile.ts';
import { handler as startOAuth } from '#functions/oauth/start-o-auth.ts';
import { handler as unlinkOAuthAccount } from '#functions/oauth/unlink-o-auth-account.ts';
import { handler as getServerFeatures } from '#functions/server-info/get-server-features.ts';
import { handler as deleteUser } from '#functions/user/delete-user.ts';
import { handler as getAllUsers } from '#functions/user/get-all-users.ts';
import { handler as getMyUserInfo } from '#functions/user/get-my-user-info.ts';
import { handler as unlinkAllOAuthAccountsAdmin } from '#functions/v3/auth-admin/unlink-all-o-auth-accounts-admin.ts';
import { handler as getAdminConfig } from '#functions/v3/config/get-admin-config.ts';
import { handler as updateAdminConfig } from '#functions/v3/config/update-admin-config.ts';
import { handler as getServerFeaturesV3 } from '#functions/v3/server/get-server-features.ts';
import { forgetProviders } from '#shared/storage/oauth-provider.ts';
import { bearer, createUser, fixtures, login, signUpAdmin } from '../support/accounts.ts';
import { type Call, invoke } from '../support/invoke.ts';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider.ts';

const web = 'http://127.0.0.1:2283';
const webRedirect = `${web}/auth/login`;
const mobileOverride = `${web}/api/oauth/mobile-redirect`;
const json = { accept: 'application/json' };
// Immich's 3.x app names itself; its 1.100 app is Dart's own client.
const app3 = { 'user-agent': 'immich-android/3.1.0', ...json };

// The settings' provider timeout (milliseconds): Immich's default, and a short one for the provider that is down.
const providerTimeout = { usual: 30_000, short: 1000 };

let provider: TestProvider;
let adminToken: string;

const configure = async (changes: Record<string, unknown>) => {
  const headers = bearer(adminToken);
  const config = (await invoke(getAdminConfig, { path: '/api/admin/config', headers })).body;
  const reply = await invoke(updateAdminConfig, {
    method: 'PUT',
    path: '/api/admin/config',
    headers,
    body: { ...config, oauth: { ...config.oauth, ...changes } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

const enable = (changes: Record<string, unknown> = {}) =>
  configure({
    enabled: true,
    issuerUrl: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    allowInsecureRequests: true,
    autoRegister: true,
    mobileOverrideEnabled: false,
    mobileRedirectUri: '',
    signingAlgorithm: 'RS256',
    defaultStorageQuota: null,
    timeout: providerTimeout.usual,
    ...changes,
  });

const authorize = (body: unknown, headers: Record<string, string> = json) =>
  invoke(startOAuth, { method: 'POST', path: '/api/oauth/authorize', body, headers });

/** The cookies a Set-Cookie list sets, as the browser would send them back. */
const cookieHeader = (setCookies: string[]) =>
  setCookies
    .map((line) => line.split(';')[0] as string)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');

/** The web app's flow: authorize, the provider's form, back with the code; answers the callback's call. */
const webSignIn = async (sub: string, headers: Record<string, string> = json) => {
  const started = await authorize({ redirectUri: webRedirect }, headers);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const back = await provider.signInAt(started.body.url, sub);
  return { started, back, cookie: cookieHeader(started.cookies) };
};

const callback = (body: unknown, headers: Record<string, string>) =>
  invoke(finishOAuth, { method: 'POST', path: '/api/oauth/callback', body, headers } satisfies Call);

beforeAll(async () => {
  provider = await startOidcProvider({
    redirectUris: [webRedirect, `${web}/user-settings`, mobileOverride, 'app.immich:///oauth-callback'],
  });
  await signUpAdmin();
  adminToken = (await login(fixtures.admin)).accessToken;
});

afterAll(async () => {
  await provider?.close();
});

describe('OAuth settings', () => {
  it('answers 400 `OAuth is not enabled` while it is off, and the features say so', async () => {
    expect(await authorize({ redirectUri: webRedirect })).toMatchObject({ status: 400, body: { message: 'OAuth is not enabled' } });
    expect(await callback({ url: `${webRedirect}?code=x&state=y`, state: 'y', codeVerifier: 'z' }, json)).toMatchObject({
      status: 400,
      body: { message: 'OAuth is not enabled' },
    });
    expect((await invoke(getServerFeatures, { path: '/api/server-info/features' })).body).toMatchObject({
      oauth: false,
      oauthAutoLaunch: false,
    });
  });

  it('turns the features on for both generations with the settings', async () => {
    await enable({ autoLaunch: true });
    expect((await invoke(getServerFeatures, { path: '/api/server-info/features' })).body).toMatchObject({
      oauth: true,
      oauthAutoLaunch: true,
    });
    expect((await invoke(getServerFeaturesV3, { path: '/api/server/features' })).body).toMatchObject({
      oauth: true,
      oauthAutoLaunch: true,
    });
    await enable({ autoLaunch: false });
  });
});

describe('the web flow', () => {
  beforeAll(async () => {
    await enable();
  });

  it('registers a new user with the claims, signs them in with Immich cookies, and the session works', async () => {
    provider.accounts.set('sub-alice', {
      email: 'Alice@Example.com',
      name: 'Alice Liddell',
      preferred_username: 'alice',
      immich_quota: 2,
    });
    const { started, back, cookie } = await webSignIn('sub-alice');
    expect(started.body.url.startsWith(`${provider.issuer}/auth?`)).toBe(true);
    const query = new URL(started.body.url).searchParams;
    expect(query.get('redirect_uri')).toBe(webRedirect);
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(started.cookies.map((line) => line.split('=')[0])).toEqual(['immich_oauth_state', 'immich_oauth_code_verifier']);

    const reply = await callback({ url: back }, { ...json, cookie });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toEqual({
      accessToken: expect.any(String),
      userId: expect.any(String),
      userEmail: 'alice@example.com',
      name: 'Alice Liddell',
      isAdmin: false,
      profileImagePath: '',
      shouldChangePassword: false,
      isOnboarded: false,
    });
    expect(reply.cookies).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^immich_access_token=\w+; HttpOnly; Path=\/;/),
        expect.stringMatching(/^immich_auth_type=oauth; /),
        expect.stringMatching(/^immich_is_authenticated=true; /),
        'immich_oauth_state=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      ]),
    );
    const me = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(reply.body.accessToken) });
    expect(me.body).toMatchObject({
      email: 'alice@example.com',
      oauthId: 'sub-alice',
      storageLabel: 'alice',
      quotaSizeInBytes: 2 * 1024 ** 3,
      isAdmin: false,
    });
  });

  it('signs the same account in again as the same user, and password login refuses their empty password', async () => {
    const first = await webSignIn('sub-alice');
    const again = await callback({ url: first.back }, { ...json, cookie: first.cookie });
    expect(again.status).toBe(201);
    const me = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(again.body.accessToken) });
    expect(me.body.email).toBe('alice@example.com');
    expect(
      await invoke(loginHandler, { method: 'POST', path: '/api/auth/login', body: { email: 'alice@example.com', password: '' } }),
    ).toMatchObject({
      status: 400,
    });
  });

  it('refuses a replayed code, a foreign state and a missing verifier, with Immich messages', async () => {
    const { back, cookie } = await webSignIn('sub-alice');
    expect((await callback({ url: back }, { ...json, cookie })).status).toBe(201);
    expect(await callback({ url: back }, { ...json, cookie })).toMatchObject({ status: 400, body: { message: 'OAuth login failed' } });

    const other = await webSignIn('sub-alice');
    const foreign = await callback(
      { url: other.back },
      { ...json, cookie: cookie.replace(/immich_oauth_state=[^;]+/, 'immich_oauth_state=forged') },
    );
    expect(foreign).toMatchObject({ status: 400, body: { message: 'OAuth login failed' } });

    const third = await webSignIn('sub-alice');
    expect(await callback({ url: third.back }, json)).toMatchObject({ status: 400, body: { message: 'OAuth state is missing' } });
    const stateOnly = third.cookie.replace(/;?\s*immich_oauth_code_verifier=[^;]+/, '');
    expect(await callback({ url: third.back }, { ...json, cookie: stateOnly })).toMatchObject({
      status: 400,
      body: { message: 'OAuth code verifier is missing' },
    });
    expect(await callback({}, json)).toMatchObject({ status: 400 });
  });

  it('links an existing user by email, and refuses an email whose user is linked to another account', async () => {
    const bob = await createUser(adminToken, { email: 'bob@immich.cloud', password: 'password-bob', name: 'Bob' });
    provider.accounts.set('sub-bob', { email: 'bob@immich.cloud', name: 'Bobby' });
    const first = await webSignIn('sub-bob');
    const reply = await callback({ url: first.back }, { ...json, cookie: first.cookie });
    expect(reply.body).toMatchObject({ userId: bob.id, name: 'Bob' });

    provider.accounts.set('sub-bob-2', { email: 'bob@immich.cloud' });
    const second = await webSignIn('sub-bob-2');
    expect(await callback({ url: second.back }, { ...json, cookie: second.cookie })).toMatchObject({
      status: 400,
      body: { message: 'OAuth authentication failed' },
    });
  });

  it('neither signs in nor links a deleted user', async () => {
    const kim = await createUser(adminToken, { email: 'kim@immich.cloud', password: 'password-kim', name: 'Kim' });
    expect(
      (
        await invoke(deleteUser, {
          method: 'DELETE',
          path: `/api/user/${kim.id}`,
          pathParameters: { id: kim.id },
          headers: bearer(adminToken),
          body: {},
        })
      ).status,
    ).toBe(200);
    provider.accounts.set('sub-kim', { email: 'kim@immich.cloud' });
    const { back, cookie } = await webSignIn('sub-kim');
    expect(await callback({ url: back }, { ...json, cookie })).toMatchObject({
      status: 400,
      body: { message: 'OAuth authentication failed' },
    });
    const users = await invoke(getAllUsers, { path: '/api/user', query: { isAll: 'false' }, headers: bearer(adminToken) });
    expect(users.body.find((user: { id: string }) => user.id === kim.id)).toMatchObject({ oauthId: '' });
  });

  it('refuses a new account while auto-register is off, and one without an email', async () => {
    await enable({ autoRegister: false });
    provider.accounts.set('sub-carol', { email: 'carol@example.com' });
    const refused = await webSignIn('sub-carol');
    expect(await callback({ url: refused.back }, { ...json, cookie: refused.cookie })).toMatchObject({
      status: 400,
      body: { message: 'OAuth authentication failed' },
    });
    await enable();
    provider.accounts.set('sub-nomail', { name: 'No Mail' });
    const noMail = await webSignIn('sub-nomail');
    expect(await callback({ url: noMail.back }, { ...json, cookie: noMail.cookie })).toMatchObject({
      status: 400,
      body: { message: 'OAuth profile does not have an email address' },
    });
  });

  it('gives a new user the default quota when the claim is absent or not a number', async () => {
    await enable({ defaultStorageQuota: 5 });
    provider.accounts.set('sub-dave', { email: 'dave@example.com', given_name: 'Dave', family_name: 'Jones', immich_quota: 'lots' });
    const { back, cookie } = await webSignIn('sub-dave');
    const reply = await callback({ url: back }, { ...json, cookie });
    const me = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(reply.body.accessToken) });
    expect(me.body).toMatchObject({ name: 'Dave Jones', quotaSizeInBytes: 5 * 1024 ** 3, storageLabel: null });
    await enable();
  });

  it('registers a new user whose role claim says admin as a user while the server has its admin (there is one)', async () => {
    provider.accounts.set('sub-olga', { email: 'olga@example.com', immich_role: 'admin' });
    const { back, cookie } = await webSignIn('sub-olga');
    expect(await callback({ url: back }, { ...json, cookie })).toMatchObject({
      status: 201,
      body: { userEmail: 'olga@example.com', isAdmin: false },
    });
  });

  it('refuses an ID token signed with another algorithm than the settings name', async () => {
    await enable({ signingAlgorithm: 'ES256' });
    const { back, cookie } = await webSignIn('sub-alice');
    expect(await callback({ url: back }, { ...json, cookie })).toMatchObject({ status: 400, body: { message: 'OAuth login failed' } });
    await enable();
  });

  it('refuses an expired ID token, registering and signing in nobody; the same token, its times alone changed, is accepted', async () => {
    const users = async () =>
      (
        (await invoke(getAllUsers, { path: '/api/user', query: { isAll: 'false' }, headers: bearer(adminToken) })).body as {
          email: string;
        }[]
      ).map((user) => user.email);
    provider.accounts.set('sub-ines', { email: 'ines@example.com', name: 'Ines' });
    try {
      // Expired an hour ago, signed by the provider's key: only `exp` is wrong.
      provider.idTokenExpiresIn = -3600;
      const expired = await webSignIn('sub-ines');
      const refused = await callback({ url: expired.back }, { ...json, cookie: expired.cookie });
      expect(refused).toMatchObject({ status: 400, body: { message: 'OAuth login failed' } });
      expect(refused.body).not.toHaveProperty('accessToken');
      expect(
        refused.cookies.filter((line) => line.startsWith('immich_access_token=') && !line.startsWith('immich_access_token=;')),
      ).toEqual([]);
      expect(await users()).not.toContain('ines@example.com');
      // The same re-signing with an hour left: the refusal was the expiry's.
      provider.idTokenExpiresIn = 3600;
      const fresh = await webSignIn('sub-ines');
      expect(await callback({ url: fresh.back }, { ...json, cookie: fresh.cookie })).toMatchObject({
        status: 201,
        body: { userEmail: 'ines@example.com' },
      });
      expect(await users()).toContain('ines@example.com');
    } finally {
      provider.idTokenExpiresIn = undefined;
    }
  });
});

describe('another provider', () => {
  it('reads the profile from the userinfo endpoint when the ID token has no email, authenticating with client_secret_basic', async () => {
    const basic = await startOidcProvider({
      redirectUris: [webRedirect],
      tokenEndpointAuthMethod: 'client_secret_basic',
      claimsInIdToken: false,
    });
    try {
      await enable({
        issuerUrl: basic.issuer,
        clientId: basic.clientId,
        clientSecret: basic.clientSecret,
        tokenEndpointAuthMethod: 'client_secret_basic',
      });
      basic.accounts.set('sub-noor', { email: 'noor@example.com', name: 'Noor', preferred_username: 'noor', immich_role: ['user'] });
      const started = await authorize({ redirectUri: webRedirect });
      const back = await basic.signInAt(started.body.url, 'sub-noor');
      const reply = await callback({ url: back }, { ...json, cookie: cookieHeader(started.cookies) });
      expect(reply).toMatchObject({ status: 201, body: { userEmail: 'noor@example.com', name: 'Noor', isAdmin: false } });
      const me = await invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(reply.body.accessToken) });
      expect(me.body).toMatchObject({ oauthId: 'sub-noor', storageLabel: 'noor' });
    } finally {
      await enable({ tokenEndpointAuthMethod: 'client_secret_post' });
      await basic.close();
    }
  });
});

describe('the mobile flows', () => {
  beforeAll(async () => {
    await enable();
  });

  it('takes the 3.x app its own PKCE challenge and state, and its verifier at the callback', async () => {
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    provider.accounts.set('sub-erin', { email: 'erin@example.com', name: 'Erin' });
    const started = await authorize({ redirectUri: 'app.immich:///oauth-callback', state: 'app-state', codeChallenge: challenge }, app3);
    const query = new URL(started.body.url).searchParams;
    expect([query.get('state'), query.get('code_challenge'), query.get('redirect_uri')]).toEqual([
      'app-state',
      challenge,
      'app.immich:///oauth-callback',
    ]);
    expect(started.cookies.map((line) => line.split('=')[0])).toEqual(['immich_oauth_state']);
    const back = await provider.signInAt(started.body.url, 'sub-erin');
    expect(back.startsWith('app.immich:///oauth-callback?')).toBe(true);
    expect(await callback({ url: back, state: 'app-state', codeVerifier: 'x'.repeat(43) }, app3)).toMatchObject({
      status: 400,
      body: { message: 'OAuth login failed' },
    });
    const again = await authorize({ redirectUri: 'app.immich:///oauth-callback', state: 'app-state-2', codeChallenge: challenge }, app3);
    const back2 = await provider.signInAt(again.body.url, 'sub-erin');
    const reply = await callback({ url: back2, state: 'app-state-2', codeVerifier: verifier }, app3);
    expect(reply).toMatchObject({ status: 201, body: { userEmail: 'erin@example.com', isOnboarded: false } });
  });

  it('sends the provider to the mobile redirect override, which hands the query to the app with a 307', async () => {
    await enable({ mobileOverrideEnabled: true, mobileRedirectUri: mobileOverride });
    const started = await authorize({ redirectUri: 'app.immich:///oauth-callback' }, app3);
    expect(new URL(started.body.url).searchParams.get('redirect_uri')).toBe(mobileOverride);
    const back = await provider.signInAt(started.body.url, 'sub-erin');
    expect(back.startsWith(`${mobileOverride}?code=`)).toBe(true);
    const query = back.split('?')[1] as string;
    const hop = await invoke(redirectOAuthToMobile, {
      path: '/api/oauth/mobile-redirect',
      query: Object.fromEntries(new URLSearchParams(query)),
    });
    expect(hop.status).toBe(307);
    const appUrl = hop.headers.location as string;
    expect(appUrl.startsWith('app.immich:///oauth-callback?')).toBe(true);
    expect(new URLSearchParams(appUrl.split('?')[1]).get('code')).toBe(new URLSearchParams(query).get('code'));
    // The app sends back its own URL: the override is put back before the code is exchanged.
    const reply = await callback(
      { url: appUrl, state: new URLSearchParams(query).get('state') as string },
      { ...app3, cookie: cookieHeader(started.cookies) },
    );
    expect(reply).toMatchObject({ status: 201, body: { userEmail: 'erin@example.com' } });
    await enable();
  });

  it("gives v1.100's app (no cookies, only the URL) v1.100's flow", async () => {
    const dart = { 'user-agent': 'Dart/3.3 (dart:io)' };
    const started = await authorize({ redirectUri: 'app.immich:///oauth-callback' }, dart);
    expect(started.cookies).toEqual([]);
    expect(new URL(started.body.url).searchParams.get('code_challenge')).toBeNull();
    const back = await provider.signInAt(started.body.url, 'sub-erin');
    const reply = await callback({ url: back }, dart);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).not.toHaveProperty('isOnboarded');
  });
});

describe('link and unlink', () => {
  beforeAll(async () => {
    await enable();
  });

  it('links the signed-in user, refuses an account linked to another user, and unlinks', async () => {
    const frank = await createUser(adminToken, { email: 'frank@immich.cloud', password: 'password-frank', name: 'Frank' });
    const token = (await login({ email: 'frank@immich.cloud', password: 'password-frank' })).accessToken;
    provider.accounts.set('sub-frank', { email: 'frank-elsewhere@example.com' });
    const started = await authorize({ redirectUri: `${web}/user-settings` });
    const back = await provider.signInAt(started.body.url, 'sub-frank');
    const linked = await invoke(linkOAuthAccount, {
      method: 'POST',
      path: '/api/oauth/link',
      body: { url: back },
      headers: { ...json, ...bearer(token), cookie: cookieHeader(started.cookies) },
    });
    expect(linked).toMatchObject({ status: 200, body: { id: frank.id, oauthId: 'sub-frank' } });

    // Alice's account is linked to Alice: Frank cannot take it.
    const other = await authorize({ redirectUri: `${web}/user-settings` });
    const aliceBack = await provider.signInAt(other.body.url, 'sub-alice');
    expect(
      await invoke(linkOAuthAccount, {
        method: 'POST',
        path: '/api/oauth/link',
        body: { url: aliceBack },
        headers: { ...json, ...bearer(token), cookie: cookieHeader(other.cookies) },
      }),
    ).toMatchObject({ status: 400, body: { message: 'This OAuth account has already been linked to another user.' } });

    // Signing in with the linked account is Frank.
    const signIn = await webSignIn('sub-frank');
    expect((await callback({ url: signIn.back }, { ...json, cookie: signIn.cookie })).body).toMatchObject({ userId: frank.id });

    const unlinked = await invoke(unlinkOAuthAccount, {
      method: 'POST',
      path: '/api/oauth/unlink',
      headers: { ...json, ...bearer(token) },
    });
    expect(unlinked).toMatchObject({ status: 200, body: { id: frank.id, oauthId: '' } });
    // v1.100's answer: 201 and its user shape.
    const v1 = await invoke(unlinkOAuthAccount, { method: 'POST', path: '/api/oauth/unlink', headers: bearer(token) });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ id: frank.id, oauthId: '', memoriesEnabled: true });

    // Unlinked, the account is free again: a sign-in with it registers its own user (by its email).
    const fresh = await webSignIn('sub-frank');
    const reply = await callback({ url: fresh.back }, { ...json, cookie: fresh.cookie });
    expect(reply.status).toBe(201);
    expect(reply.body.userId).not.toBe(frank.id);
    expect(reply.body.userEmail).toBe('frank-elsewhere@example.com');
  });

  it("unlinks every user for the admin (v3's unlink-all), freeing their accounts, and refuses a non-admin", async () => {
    const before = await webSignIn('sub-alice');
    const alice = await callback({ url: before.back }, { ...json, cookie: before.cookie });
    const aliceMe = () => invoke(getMyUserInfo, { path: '/api/user/me', headers: bearer(alice.body.accessToken) });
    expect((await aliceMe()).body.oauthId).toBe('sub-alice');
    const unlinkAll = (token: string) =>
      invoke(unlinkAllOAuthAccountsAdmin, { method: 'POST', path: '/api/admin/auth/unlink-all', headers: { ...json, ...bearer(token) } });
    expect((await unlinkAll(alice.body.accessToken)).status).toBe(403);
    expect((await unlinkAll(adminToken)).status).toBe(204);
    expect((await aliceMe()).body.oauthId).toBe('');
    // The account is free: signing in with it finds Alice again by her email and links her anew.
    const after = await webSignIn('sub-alice');
    expect((await callback({ url: after.back }, { ...json, cookie: after.cookie })).body.userId).toBe(alice.body.userId);
    expect((await aliceMe()).body.oauthId).toBe('sub-alice');
  });

  it('links one account to one user when two link it at once', async () => {
    const racers = await Promise.all(
      ['lee', 'max'].map(async (name) => {
        await createUser(adminToken, { email: `${name}@immich.cloud`, password: `password-${name}`, name });
        return (await login({ email: `${name}@immich.cloud`, password: `password-${name}` })).accessToken;
      }),
    );
    provider.accounts.set('sub-shared', { email: 'shared@example.com' });
    // One code each, made one after the other (the provider's form keeps no state between them).
    const proofs: { url: string; cookie: string }[] = [];
    while (proofs.length < racers.length) {
      const started = await authorize({ redirectUri: `${web}/user-settings` });
      proofs.push({ url: await provider.signInAt(started.body.url, 'sub-shared'), cookie: cookieHeader(started.cookies) });
    }
    const replies = await Promise.all(
      racers.map((token, i) =>
        invoke(linkOAuthAccount, {
          method: 'POST',
          path: '/api/oauth/link',
          body: { url: proofs[i]?.url },
          headers: { ...json, ...bearer(token), cookie: proofs[i]?.cookie ?? '' },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400]);
    expect(replies.find((reply) => reply.status === 400)?.body.message).toBe('This OAuth account has already been linked to another user.');
  });

  it('needs a signed-in user', async () => {
    expect((await invoke(unlinkOAuthAccount, { method: 'POST', path: '/api/oauth/unlink' })).status).toBe(401);
  });
});

describe('logout', () => {
  it("sends an OAuth session's browser to the provider's end-session endpoint, a password session's to the login page", async () => {
    await enable();
    const { back, cookie } = await webSignIn('sub-alice');
    const signedIn = await callback({ url: back }, { ...json, cookie });
    const browser = { ...json, cookie: cookieHeader(signedIn.cookies) };
    const out = await invoke(logoutHandler, { method: 'POST', path: '/api/auth/logout', headers: browser });
    expect(out).toMatchObject({ status: 200, body: { successful: true, redirectUri: `${provider.issuer}/session/end` } });
    // The session ended.
    expect((await invoke(getMyUserInfo, { path: '/api/user/me', headers: browser })).status).toBe(401);

    await enable({ endSessionEndpoint: 'https://id.example.com/logout' });
    const again = await webSignIn('sub-alice');
    const second = await callback({ url: again.back }, { ...json, cookie: again.cookie });
    expect(
      (
        await invoke(logoutHandler, {
          method: 'POST',
          path: '/api/auth/logout',
          headers: { ...json, cookie: cookieHeader(second.cookies) },
        })
      ).body,
    ).toEqual({ successful: true, redirectUri: 'https://id.example.com/logout' });
    await enable({ endSessionEndpoint: '' });

    const password = await login(fixtures.admin);
    expect((await invoke(logoutHandler, { method: 'POST', path: '/api/auth/logout', headers: bearer(password.accessToken) })).body).toEqual(
      {
        successful: true,
        redirectUri: '/auth/login?autoLaunch=0',
      },
    );
    adminToken = (await login(fixtures.admin)).accessToken;
  });
});

describe('a provider that does not answer', () => {
  it('answers a clear 502 after the timeout, never a hang', async () => {
    const down = await startOidcProvider({ redirectUris: [webRedirect] });
    await down.close();
    forgetProviders();
    await enable({ issuerUrl: down.issuer, timeout: providerTimeout.short });
    const reply = await authorize({ redirectUri: webRedirect });
    expect(reply.status).toBe(502);
    expect(reply.body.message).toMatch(/^Error in OAuth discovery: /);
    expect(JSON.stringify(reply.body)).not.toContain(provider.clientSecret);
    await enable();
  });

  it('never answers the client secret to a non-admin', async () => {
    const user = await createUser(adminToken, { email: 'grace@immich.cloud', password: 'password-grace', name: 'Grace' });
    const token = (await login({ email: user.email, password: 'password-grace' })).accessToken;
    const reply = await invoke(getAdminConfig, { path: '/api/admin/config', headers: bearer(token) });
    expect(reply.status).toBe(403);
    expect(JSON.stringify(reply.body)).not.toContain(provider.clientSecret);
  });
});
