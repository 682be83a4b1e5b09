import { createHash, randomBytes } from 'node:crypto';
import * as v1 from '@immich/sdk';
import * as v3 from '@immich/sdk-v3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider.ts';
import { useServer } from '../support/server.ts';
import { hangGuard } from '../support/timeouts.ts';

/**
 * "Login with OAuth" through the server with Immich's own SDKs, against a real OpenID provider on
 * loopback (test/support/oidc-provider.ts): the web app's flow (its cookies kept as a browser keeps
 * them), the 3.x mobile app's (its own PKCE, the mobile redirect override and its 307 hop),
 * auto-register with claims, link and unlink, and the bad inputs' answers.
 */

/** A browser's cookies for the SDK's fetch: what the server sets is sent back, as the web app's browser does. */
const browser = () => {
  const jar = new Map<string, string>();
  const fetchWithCookies: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    headers.set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/138.0.0.0 Safari/537.36');
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return { jar, fetch: fetchWithCookies };
};

/**
 * What `read` answers once `done` says so: deployed, each function keeps the configuration it read
 * for a few seconds (CONFIG_CACHE_SECONDS), so a change shows in another function when its cache
 * expires (as test/e2e/server-info-config.test.ts waits for it); the last answer if never.
 */
const once = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const deadline = Date.now() + hangGuard.wait;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
};

const status = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return { status: 'ok' };
  } catch (error) {
    const { status: code, data } = error as { status?: number; data?: { message?: unknown } };
    return { status: code, message: data?.message };
  }
};

describe('OAuth through @immich/sdk 3.2.2 and 1.100.0', () => {
  const server = useServer();
  let provider: TestProvider;
  let admin: { baseUrl: string; headers: Record<string, string> };
  let webRedirect: string;
  let mobileRedirect: string;

  const configure = async (changes: Partial<v3.AdminConfigOAuthDto>) => {
    const config = await v3.getConfig(admin);
    return v3.updateConfig({ adminConfigDto: { ...config, oauth: { ...config.oauth, ...changes } } }, admin);
  };

  beforeAll(async () => {
    const { baseUrl, origin } = server;
    webRedirect = `${origin}/auth/login`;
    mobileRedirect = `${origin}/api/oauth/mobile-redirect`;
    provider = await startOidcProvider({
      redirectUris: [webRedirect, `${origin}/user-settings`, mobileRedirect, 'app.immich:///oauth-callback'],
    });
    await v3.signUpAdmin({ signUpDto: { email: 'admin@immich.cloud', password: 'password', name: 'Admin' } }, { baseUrl });
    const { accessToken } = await v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl });
    admin = { baseUrl, headers: { Authorization: `Bearer ${accessToken}` } };
    await configure({
      enabled: true,
      issuerUrl: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      allowInsecureRequests: true,
      buttonText: 'Sign in with the family account',
      accountManagementUrl: 'https://id.example.com/account',
    });
  });

  afterAll(async () => {
    await provider?.close();
  });

  it('shows the OAuth button to both generations', async () => {
    const { baseUrl } = server;
    expect(await v3.getServerFeatures({ baseUrl })).toMatchObject({ oauth: true, oauthAutoLaunch: false, passwordLogin: true });
    expect(await v1.getServerFeatures({ baseUrl })).toMatchObject({ oauth: true, oauthAutoLaunch: false, passwordLogin: true });
    expect(await v3.getServerConfig({ baseUrl })).toMatchObject({
      oauthButtonText: 'Sign in with the family account',
      oauthAccountManagementUrl: 'https://id.example.com/account',
    });
    expect((await v1.getServerConfig({ baseUrl })).oauthButtonText).toBe('Sign in with the family account');
  });

  it("signs a new user in through the v3 web app's flow, registered with the claims, and the session works", async () => {
    provider.accounts.set('sub-ines', { email: 'ines@example.com', name: 'Inês', preferred_username: 'ines', immich_quota: 3 });
    const web = browser();
    const opts = { baseUrl: server.baseUrl, fetch: web.fetch };
    const { url } = await v3.startOAuth({ oAuthConfigDto: { redirectUri: webRedirect } }, opts);
    expect([...web.jar.keys()]).toEqual(['immich_oauth_state', 'immich_oauth_code_verifier']);
    const back = await provider.signInAt(url, 'sub-ines');
    const login = await v3.finishOAuth({ oAuthCallbackDto: { url: back } }, opts);
    expect(login).toMatchObject({ userEmail: 'ines@example.com', name: 'Inês', isAdmin: false, shouldChangePassword: false });
    // The browser now holds the session (Immich's cookies), and the OAuth ones are gone.
    expect([...web.jar.keys()].sort()).toEqual(['immich_access_token', 'immich_auth_type', 'immich_is_authenticated']);
    expect(web.jar.get('immich_auth_type')).toBe('oauth');
    const me = await v3.getMyUser(opts);
    expect(me).toMatchObject({ email: 'ines@example.com', storageLabel: 'ines', quotaSizeInBytes: 3 * 1024 ** 3 });
    expect((await v3.getUserAdmin({ id: me.id }, admin)).oauthId).toBe('sub-ines');

    // The same code again: the provider refuses it, and so does the server, with Immich's message.
    expect(await status(v3.finishOAuth({ oAuthCallbackDto: { url: back, state: 'x', codeVerifier: 'y'.repeat(43) } }, opts))).toEqual({
      status: 400,
      message: 'OAuth login failed',
    });
  });

  it("signs in through v1.100's web app flow and SDK", async () => {
    const web = browser();
    const opts = { baseUrl: server.baseUrl, fetch: web.fetch };
    const { url } = await v1.startOAuth({ oAuthConfigDto: { redirectUri: webRedirect } }, opts);
    const back = await provider.signInAt(url, 'sub-ines');
    const login = await v1.finishOAuth({ oAuthCallbackDto: { url: back } }, opts);
    expect(login.userEmail).toBe('ines@example.com');
    expect((await v1.getMyUserInfo(opts)).oauthId).toBe('sub-ines');
  });

  it("signs the 3.x mobile app in through the mobile redirect override and its 307 hop, with the app's own PKCE", async () => {
    await configure({ mobileOverrideEnabled: true, mobileRedirectUri: mobileRedirect });
    const app = { baseUrl: server.baseUrl, headers: { 'user-agent': 'immich-android/3.1.0' } };
    // Deployed, each function reads the settings on its own (cached a few seconds: docs/api.md):
    // startOAuth is asked until it sees the override; the callback's function may still read the
    // settings from before it, and exchange the code for the redirect without the override (a 400).
    // So the whole sign-in is tried again while that can still be the case.
    const appSignIn = async () => {
      const verifier = randomBytes(32).toString('base64url');
      const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
      const state = randomBytes(16).toString('base64url');
      const { url } = await once(
        () => v3.startOAuth({ oAuthConfigDto: { redirectUri: 'app.immich:///oauth-callback', state, codeChallenge } }, app),
        (started) => new URL(started.url).searchParams.get('redirect_uri') === mobileRedirect,
      );
      expect(new URL(url).searchParams.get('redirect_uri')).toBe(mobileRedirect);
      const back = await provider.signInAt(url, 'sub-ines');
      // The browser lands on the server, which hands the query to the app.
      const hop = await fetch(back, { redirect: 'manual' });
      expect(hop.status).toBe(307);
      const appUrl = hop.headers.get('location') ?? '';
      expect(appUrl.startsWith('app.immich:///oauth-callback?code=')).toBe(true);
      const login = await v3.finishOAuth({ oAuthCallbackDto: { url: appUrl, state, codeVerifier: verifier } }, app);
      return { login, state, codeChallenge, verifier };
    };
    const deadline = Date.now() + hangGuard.wait;
    let signedIn = await appSignIn().catch((error: unknown) => error);
    while (signedIn instanceof Error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      signedIn = await appSignIn().catch((error: unknown) => error);
    }
    if (signedIn instanceof Error) throw signedIn;
    const { login, state, codeChallenge, verifier } = signedIn as Awaited<ReturnType<typeof appSignIn>>;
    expect(login.userEmail).toBe('ines@example.com');
    expect((await v3.getMyUser({ ...app, headers: { ...app.headers, Authorization: `Bearer ${login.accessToken}` } })).email).toBe(
      'ines@example.com',
    );
    // A state that is not the one the app sent to the provider.
    const again = await v3.startOAuth({ oAuthConfigDto: { redirectUri: 'app.immich:///oauth-callback', state, codeChallenge } }, app);
    const hop2 = await fetch(await provider.signInAt(again.url, 'sub-ines'), { redirect: 'manual' });
    const forged = { url: hop2.headers.get('location') ?? '', state: 'forged', codeVerifier: verifier };
    expect(await status(v3.finishOAuth({ oAuthCallbackDto: forged }, app))).toEqual({ status: 400, message: 'OAuth login failed' });
    await configure({ mobileOverrideEnabled: false, mobileRedirectUri: '' });
  });

  it('links a password user to an account and unlinks them, through both SDKs', async () => {
    await v3.createUserAdmin({ userAdminCreateDto: { email: 'jo@immich.cloud', password: 'password-jo', name: 'Jo' } }, admin);
    const web = browser();
    const opts = { baseUrl: server.baseUrl, fetch: web.fetch };
    await v3.login({ loginCredentialDto: { email: 'jo@immich.cloud', password: 'password-jo' } }, opts);
    provider.accounts.set('sub-jo', { email: 'jo.elsewhere@example.com' });
    const { url } = await v3.startOAuth({ oAuthConfigDto: { redirectUri: `${server.origin}/user-settings` } }, opts);
    const linked = await v3.linkOAuthAccount({ oAuthCallbackDto: { url: await provider.signInAt(url, 'sub-jo') } }, opts);
    expect(linked).toMatchObject({ email: 'jo@immich.cloud', oauthId: 'sub-jo' });

    // Ines's account cannot be linked to Jo.
    const other = await v3.startOAuth({ oAuthConfigDto: { redirectUri: `${server.origin}/user-settings` } }, opts);
    const taken = await provider.signInAt(other.url, 'sub-ines');
    expect(await status(v3.linkOAuthAccount({ oAuthCallbackDto: { url: taken } }, opts))).toEqual({
      status: 400,
      message: 'This OAuth account has already been linked to another user.',
    });

    expect((await v1.unlinkOAuthAccount(opts)).oauthId).toBe('');
    expect((await v3.getMyUser(opts)).oauthId).toBe('');
  });

  it('refuses password login once the admin turns it off, with Immich’s message', async () => {
    const config = await v3.getConfig(admin);
    await v3.updateConfig({ adminConfigDto: { ...config, passwordLogin: { enabled: false } } }, admin);
    const features = await once(
      () => v3.getServerFeatures({ baseUrl: server.baseUrl }),
      (answer) => !answer.passwordLogin,
    );
    expect(features.passwordLogin).toBe(false);
    const signIn = () =>
      status(v3.login({ loginCredentialDto: { email: 'admin@immich.cloud', password: 'password' } }, { baseUrl: server.baseUrl }));
    expect(await once(signIn, (answer) => answer.status === 401)).toEqual({ status: 401, message: 'Password login has been disabled' });
    await v3.updateConfig({ adminConfigDto: { ...config, passwordLogin: { enabled: true } } }, admin);
  });
});
