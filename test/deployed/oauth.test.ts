/**
 * The stack as `-c oauth=cognito` makes it (infra/cdk/cognito.ts), served as `npm run
 * start:deployed` serves it: the OAuth functions read their settings from the template's secret
 * through the IAM-checking gateway, which serves a real OpenID provider's (test/support/oidc-provider.ts,
 * on loopback) in Cognito's place. The web app's and the 3.x mobile app's flows go through the
 * distribution to the template's functions, with the callback URLs the stack gives Cognito.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { type DeployedApi, listen, startDeployed } from '#infra/local/deployed/start.ts';
import { routes } from '#infra/routes.ts';
import { deployedAssembly } from '../support/assembly.ts';
import { cognitoAssembly } from '../support/cognito-assembly.ts';
import { testDeployment } from '../support/deployed-stack.ts';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider.ts';

const functionFor = (deployment: Deployment, routeKey: string): string => {
  const id = deployment.routes.find((route) => route.routeKey === routeKey)?.functionId;
  if (!id) throw new Error(`no route ${routeKey}`);
  return id;
};

// What Cognito's secret holds (infra/cdk/cognito.ts), here naming the test's provider (started once
// the server's origin is known) and this server's origin in the distribution's place.
let provider: TestProvider;
let origin: string;
const settings = () => ({
  issuerUrl: provider.issuer,
  clientId: provider.clientId,
  clientSecret: provider.clientSecret,
  mobileOverrideEnabled: true,
  mobileRedirectUri: `${origin}/api/oauth/mobile-redirect`,
});

let assembly: ReturnType<typeof cognitoAssembly>;
let api: DeployedApi;
let s3Dir: string;
const denied: string[] = [];
const failures: string[] = [];
beforeAll(async () => {
  assembly = cognitoAssembly(await deployedAssembly());
  s3Dir = mkdtempSync(join(tmpdir(), 'deployed-oauth-s3-'));
  api = await startDeployed({
    ...(await testDeployment(s3Dir)),
    assemblyDir: assembly.dir,
    adjust: assembly.withBundles,
    oauthSettings: settings,
    onDenied: (functionId, what) => denied.push(`${functionId}: ${what.action} on ${what.resource}`),
    onFailure: (functionId, message) => failures.push(`${functionId}: ${message}`),
  });
  origin = `http://127.0.0.1:${await listen(api.server)}`;
  // The callback URLs the stack gives Cognito's app client, on this server's origin.
  provider = await startOidcProvider({
    redirectUris: [`${origin}/auth/login`, `${origin}/user-settings`, `${origin}/api/oauth/mobile-redirect`],
  });
});
afterAll(async () => {
  await provider?.close();
  await api?.close();
  assembly?.dispose();
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});

/** A call through the distribution (JSON both ways); answers the status, the body and the cookies it set, as a browser sends them back. */
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as unknown, cookie };
};

const signUpAdmin = async (): Promise<Record<string, string>> => {
  const admin = { email: 'admin@example.com', password: 'an-admin-password', name: 'Admin' };
  expect((await call('POST', '/api/auth/admin-sign-up', admin)).status).toBe(201);
  const { body } = await call('POST', '/api/auth/login', { email: admin.email, password: admin.password });
  return { authorization: `Bearer ${(body as { accessToken: string }).accessToken}` };
};

const secretsAs = (functionId: string) =>
  new SecretsManagerClient({
    endpoint: api.awsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: api.accessKeyOf(functionId) ?? '', secretAccessKey: 'local' },
  });

describe('the Cognito form served locally (-c oauth=cognito)', () => {
  it('gives the settings secret’s own ARN (never the shared-link secret’s) to exactly the rows that say oauthSecret', () => {
    const arns = new Set<string>();
    const given: string[] = [];
    for (const route of api.deployment.routes) {
      const arn = api.deployment.functions.get(route.functionId)?.environment.OAUTH_SECRET_ARN;
      if (!arn) continue;
      given.push(route.routeKey);
      arns.add(arn);
    }
    expect(given.sort()).toEqual(
      routes
        .filter((route) => route.oauthSecret)
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    );
    expect([...arns]).toEqual([expect.stringMatching(/^arn:aws:secretsmanager:us-east-1:000000000000:secret:OAuthSettings-/)]);
  });

  it('answers a reader’s GetSecretValue with the provider’s settings, and refuses every other function, as IAM would', async () => {
    const reader = functionFor(api.deployment, 'GET /api/server/features');
    const arn = api.deployment.functions.get(reader)?.environment.OAUTH_SECRET_ARN ?? '';
    const { SecretString } = await secretsAs(reader).send(new GetSecretValueCommand({ SecretId: arn }));
    expect(JSON.parse(SecretString ?? '')).toEqual(settings());
    // The user's own account route reads no OAuth settings, so its role may not read them.
    const other = functionFor(api.deployment, 'GET /api/users/me');
    await expect(secretsAs(other).send(new GetSecretValueCommand({ SecretId: arn }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(denied).toEqual([`${other}: secretsmanager:GetSecretValue on ${arn}`]);
    denied.length = 0;
  });

  it('turns OAuth on from the secret alone: the features say so, the admin page shows the provider, nothing of it is stored', async () => {
    expect(await (await fetch(`${origin}/api/server/features`)).json()).toMatchObject({ oauth: true, oauthAutoLaunch: false });
    expect(await (await fetch(`${origin}/api/server-info/features`)).json()).toMatchObject({ oauth: true });
    const admin = await signUpAdmin();
    const config = (await call('GET', '/api/admin/config', undefined, admin)).body as { oauth: Record<string, unknown> };
    // The mobile override too, before the admin saved anything.
    expect(config.oauth).toMatchObject({ enabled: true, ...settings() });
    // The admin's own settings for the rest (http on loopback, auto-register); the provider's
    // three and the mobile override are the secret's, whatever the page sends back.
    const saved = await call(
      'PUT',
      '/api/admin/config',
      {
        ...config,
        oauth: {
          ...config.oauth,
          issuerUrl: 'https://stored.example.com',
          allowInsecureRequests: true,
          autoRegister: true,
          mobileOverrideEnabled: false,
          mobileRedirectUri: 'https://stored.example.com/elsewhere',
        },
      },
      admin,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((saved.body as { oauth: Record<string, unknown> }).oauth).toMatchObject({
      issuerUrl: provider.issuer,
      allowInsecureRequests: true,
      mobileOverrideEnabled: true,
      mobileRedirectUri: `${origin}/api/oauth/mobile-redirect`,
    });
    await api.idle();
    expect([denied, failures]).toEqual([[], []]);
  });

  it('signs a family member in through the web app’s flow: authorize, the provider’s form, the callback at /auth/login', async () => {
    provider.accounts.set('sub-grandma', { email: 'grandma@example.com', name: 'Grandma' });
    const started = await call('POST', '/api/oauth/authorize', { redirectUri: `${origin}/auth/login` });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const url = new URL((started.body as { url: string }).url);
    // The secret's provider and client, and PKCE, as Cognito would be asked.
    expect(url.href.startsWith(`${provider.issuer}/auth?`)).toBe(true);
    expect([
      url.searchParams.get('client_id'),
      url.searchParams.get('redirect_uri'),
      url.searchParams.get('code_challenge_method'),
    ]).toEqual([provider.clientId, `${origin}/auth/login`, 'S256']);
    const back = await provider.signInAt(url.href, 'sub-grandma');
    const signedIn = await call('POST', '/api/oauth/callback', { url: back }, { cookie: started.cookie });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201);
    expect(signedIn.body).toMatchObject({ userEmail: 'grandma@example.com', name: 'Grandma' });
    const me = await call('GET', '/api/users/me', undefined, {
      authorization: `Bearer ${(signedIn.body as { accessToken: string }).accessToken}`,
    });
    expect(me.body).toMatchObject({ email: 'grandma@example.com', oauthId: 'sub-grandma' });
    await api.idle();
    expect([denied, failures]).toEqual([[], []]);
  });

  it('signs the 3.x mobile app in through the secret’s override, which the admin never turned on (the page’s “off” does not win): the provider comes back to /api/oauth/mobile-redirect, which hands the app its code', async () => {
    provider.accounts.set('sub-kid', { email: 'kid@example.com', name: 'Kid' });
    const app = { 'user-agent': 'immich-android/3.1.0' };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const started = await call(
      'POST',
      '/api/oauth/authorize',
      { redirectUri: 'app.immich:///oauth-callback', state: 'app-state', codeChallenge: challenge },
      app,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const url = new URL((started.body as { url: string }).url);
    expect([url.searchParams.get('redirect_uri'), url.searchParams.get('state'), url.searchParams.get('code_challenge')]).toEqual([
      `${origin}/api/oauth/mobile-redirect`,
      'app-state',
      challenge,
    ]);
    const back = await provider.signInAt(url.href, 'sub-kid');
    expect(back.startsWith(`${origin}/api/oauth/mobile-redirect?code=`)).toBe(true);
    // The hop through the distribution to the template's function: a 307 to the app's scheme.
    const hop = await fetch(back, { redirect: 'manual' });
    expect(hop.status).toBe(307);
    const appUrl = hop.headers.get('location') ?? '';
    expect(appUrl.startsWith('app.immich:///oauth-callback?')).toBe(true);
    expect(new URL(appUrl).searchParams.get('code')).toBe(new URL(back).searchParams.get('code'));
    const signedIn = await call('POST', '/api/oauth/callback', { url: appUrl, state: 'app-state', codeVerifier: verifier }, app);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201);
    expect(signedIn.body).toMatchObject({ userEmail: 'kid@example.com' });
    await api.idle();
    expect([denied, failures]).toEqual([[], []]);
  });

  it('refuses to start a Cognito template without a provider to serve in Cognito’s place', async () => {
    const s3 = mkdtempSync(join(tmpdir(), 'deployed-oauth-none-'));
    try {
      await expect(
        startDeployed({ ...(await testDeployment(s3)), assemblyDir: assembly.dir, adjust: assembly.withBundles }),
      ).rejects.toThrow(/reads its OAuth settings from Secrets Manager \(-c oauth=cognito\).*OAUTH_ISSUER_URL/);
    } finally {
      rmSync(s3, { recursive: true, force: true });
    }
  });
});
