import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as finishOAuth } from '#functions/oauth/finish-o-auth.ts';
import { handler as startOAuth } from '#functions/oauth/start-o-auth.ts';
import { handler as getServerFeatures } from '#functions/server-info/get-server-features.ts';
import { handler as getAdminConfig } from '#functions/v3/config/get-admin-config.ts';
import { handler as updateAdminConfig } from '#functions/v3/config/update-admin-config.ts';
import * as configRepo from '#shared/db/config.repository.ts';
import { clearConfigCache } from '#shared/services/config.reader.ts';
import { bearer, fixtures, login, signUpAdmin } from '../support/accounts.ts';
import { savedEnv } from '../support/env.ts';
import { invoke } from '../support/invoke.ts';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider.ts';
import { type SecretsManagerStandIn, startSecretsManager } from '../support/secrets-manager.ts';

/**
 * The deployment's OAuth provider (`OAUTH_SECRET_ARN`, docs/immich-compatibility.md, "OAuth"):
 * the functions read the secret through the AWS SDK from a Secrets Manager stand-in on loopback
 * (as `npm run start:deployed` answers it: infra/local/deployed/aws-gateway.ts), which answers
 * the one secret and counts the reads.
 */
const secretArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:OAuth-AbCdEf';
// A second secret, as `-c oauth=cognito` writes it: with the mobile redirect override.
const mobileSecretArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:OAuthMobile-AbCdEf';
const mobileRedirect = 'http://127.0.0.1:2283/api/oauth/mobile-redirect';
const web = 'http://127.0.0.1:2283';
const json = { accept: 'application/json' };

let provider: TestProvider;
let secrets: SecretsManagerStandIn;
let answer: 'secret' | 'denied' = 'secret';
let adminToken: string;
const saved = savedEnv('OAUTH_SECRET_ARN', 'AWS_ENDPOINT_URL_SECRETS_MANAGER');

const adminConfig = async () => (await invoke(getAdminConfig, { path: '/api/admin/config', headers: bearer(adminToken) })).body;
const putOAuth = async (changes: Record<string, unknown>) => {
  const config = await adminConfig();
  const reply = await invoke(updateAdminConfig, {
    method: 'PUT',
    path: '/api/admin/config',
    headers: bearer(adminToken),
    body: { ...config, oauth: { ...config.oauth, ...changes } },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [`${web}/auth/login`, mobileRedirect] });
  secrets = await startSecretsManager((secretId) =>
    answer === 'secret' && (secretId === secretArn || secretId === mobileSecretArn)
      ? JSON.stringify({
          issuerUrl: provider.issuer,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          ...(secretId === mobileSecretArn ? { mobileOverrideEnabled: true, mobileRedirectUri: mobileRedirect } : {}),
        })
      : undefined,
  );
  await signUpAdmin();
  adminToken = (await login(fixtures.admin)).accessToken;
  process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = secrets.endpoint;
  process.env.OAUTH_SECRET_ARN = secretArn;
});

afterAll(async () => {
  saved.restore();
  await provider?.close();
  await secrets?.close();
});

describe('OAUTH_SECRET_ARN', () => {
  it('leaves OAuth off while the secret cannot be read, and every other setting served', async () => {
    answer = 'denied';
    const config = await adminConfig();
    expect(config.oauth).toMatchObject({ enabled: false, issuerUrl: '', clientId: '' });
    expect((await invoke(getServerFeatures, { path: '/api/server-info/features' })).body).toMatchObject({ oauth: false, map: true });
    answer = 'secret';
    // A container whose configuration cache has expired (CONFIG_CACHE_SECONDS) reads it again.
    clearConfigCache();
  });

  it('overrides the issuer, client id and secret, shows them to the admin, and turns OAuth on', async () => {
    const before = secrets.reads;
    const config = await adminConfig();
    expect(config.oauth).toMatchObject({
      enabled: true,
      issuerUrl: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
    });
    expect((await invoke(getServerFeatures, { path: '/api/server-info/features' })).body).toMatchObject({ oauth: true });
    // Read once per container, not once per request.
    expect(secrets.reads - before).toBe(1);
  });

  it('never stores what the secret says, whatever the admin page sends back, and keeps what the admin sets', async () => {
    const reply = await putOAuth({ allowInsecureRequests: true, issuerUrl: 'https://other.example', clientSecret: 'typed-in' });
    expect(reply.oauth).toMatchObject({ issuerUrl: provider.issuer, clientSecret: provider.clientSecret, allowInsecureRequests: true });
    const { overrides } = await configRepo.getStoredConfig();
    expect(Object.keys(overrides).filter((key) => key.startsWith('oauth.'))).toEqual(
      expect.arrayContaining(['oauth.enabled', 'oauth.allowInsecureRequests']),
    );
    for (const key of ['oauth.issuerUrl', 'oauth.clientId', 'oauth.clientSecret']) expect(overrides).not.toHaveProperty([key]);
  });

  it('signs in through the provider the secret names', async () => {
    provider.accounts.set('sub-hana', { email: 'hana@example.com', name: 'Hana' });
    const started = await invoke(startOAuth, {
      method: 'POST',
      path: '/api/oauth/authorize',
      body: { redirectUri: `${web}/auth/login` },
      headers: json,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.url.startsWith(provider.issuer)).toBe(true);
    const back = await provider.signInAt(started.body.url, 'sub-hana');
    const cookie = started.cookies.map((line) => line.split(';')[0]).join('; ');
    const reply = await invoke(finishOAuth, {
      method: 'POST',
      path: '/api/oauth/callback',
      body: { url: back },
      headers: { ...json, cookie },
    });
    expect(reply).toMatchObject({ status: 201, body: { userEmail: 'hana@example.com', name: 'Hana' } });
  });

  it('keeps the admin’s own mobile redirect override when the secret has none', async () => {
    const ours = 'https://photos.example.com/api/oauth/mobile-redirect';
    const reply = await putOAuth({ mobileOverrideEnabled: true, mobileRedirectUri: ours });
    expect(reply.oauth).toMatchObject({ mobileOverrideEnabled: true, mobileRedirectUri: ours });
    const { overrides } = await configRepo.getStoredConfig();
    expect(overrides).toMatchObject({ 'oauth.mobileOverrideEnabled': true, 'oauth.mobileRedirectUri': ours });
  });

  it('lets the admin turn it off', async () => {
    await putOAuth({ enabled: false });
    expect((await invoke(getServerFeatures, { path: '/api/server-info/features' })).body).toMatchObject({ oauth: false });
  });
});

describe('OAUTH_SECRET_ARN with the mobile redirect override (as -c oauth=cognito writes it)', () => {
  it('turns the override on with the secret’s URI over what the admin stored, and never stores what the page sends back', async () => {
    process.env.OAUTH_SECRET_ARN = mobileSecretArn;
    clearConfigCache();
    expect((await adminConfig()).oauth).toMatchObject({ mobileOverrideEnabled: true, mobileRedirectUri: mobileRedirect });
    const reply = await putOAuth({ enabled: true, mobileOverrideEnabled: false, mobileRedirectUri: 'https://other.example/hop' });
    expect(reply.oauth).toMatchObject({ enabled: true, mobileOverrideEnabled: true, mobileRedirectUri: mobileRedirect });
    const { overrides } = await configRepo.getStoredConfig();
    for (const key of ['oauth.mobileOverrideEnabled', 'oauth.mobileRedirectUri', 'oauth.issuerUrl'])
      expect(overrides).not.toHaveProperty([key]);
  });

  it('signs the 3.x mobile app in through the secret’s override, which no admin set', async () => {
    provider.accounts.set('sub-kenji', { email: 'kenji@example.com', name: 'Kenji' });
    const app = { ...json, 'user-agent': 'immich-android/3.1.0' };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const started = await invoke(startOAuth, {
      method: 'POST',
      path: '/api/oauth/authorize',
      body: { redirectUri: 'app.immich:///oauth-callback', state: 'app-state', codeChallenge: challenge },
      headers: app,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(new URL(started.body.url).searchParams.get('redirect_uri')).toBe(mobileRedirect);
    const back = await provider.signInAt(started.body.url, 'sub-kenji');
    expect(back.startsWith(`${mobileRedirect}?code=`)).toBe(true);
    // The app receives the same query on its own scheme (GET /oauth/mobile-redirect's 307).
    const reply = await invoke(finishOAuth, {
      method: 'POST',
      path: '/api/oauth/callback',
      body: { url: `app.immich:///oauth-callback${new URL(back).search}`, state: 'app-state', codeVerifier: verifier },
      headers: app,
    });
    expect(reply).toMatchObject({ status: 201, body: { userEmail: 'kenji@example.com' } });
  });
});
