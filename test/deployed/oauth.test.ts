/**
 * The stack as `-c oauth=cognito` makes it (infra/cdk/cognito.ts), served as `npm run
 * start:deployed` serves it: the OAuth functions read their settings from the template's secret
 * through the IAM-checking gateway, which serves a local provider's settings in Cognito's place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import { type DeployedApi, listen, startDeployed } from '#infra/local/deployed/start.ts';
import { deployedAssembly } from '../support/assembly.ts';
import { cognitoAssembly } from '../support/cognito-assembly.ts';
import { testDeployment } from '../support/deployed-stack.ts';

const functionFor = (deployment: Deployment, routeKey: string): string => {
  const id = deployment.routes.find((route) => route.routeKey === routeKey)?.functionId;
  if (!id) throw new Error(`no route ${routeKey}`);
  return id;
};

// What Cognito's secret holds, here naming a provider of this machine's (the served value only: no provider answers here).
const settings = {
  issuerUrl: 'http://127.0.0.1:9/oidc',
  clientId: 'immich-local',
  clientSecret: 'a client secret of the local provider',
};

let assembly: ReturnType<typeof cognitoAssembly>;
let api: DeployedApi;
let origin: string;
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
    oauthSettings: () => settings,
    onDenied: (functionId, what) => denied.push(`${functionId}: ${what.action} on ${what.resource}`),
    onFailure: (functionId, message) => failures.push(`${functionId}: ${message}`),
  });
  origin = `http://127.0.0.1:${await listen(api.server)}`;
});
afterAll(async () => {
  await api?.close();
  assembly?.dispose();
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});

const secretsAs = (functionId: string) =>
  new SecretsManagerClient({
    endpoint: api.awsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: api.accessKeyOf(functionId) ?? '', secretAccessKey: 'local' },
  });

describe('the Cognito form served locally (-c oauth=cognito)', () => {
  it('gives the OAuth settings’ readers the settings secret’s own ARN, never the shared-link secret’s', () => {
    const arns = new Set<string>();
    for (const routeKey of [
      'GET /api/server/features',
      'GET /api/server-info/config',
      'GET /api/system-config',
      'PUT /api/system-config',
    ]) {
      const fn = api.deployment.functions.get(functionFor(api.deployment, routeKey));
      expect(fn?.environment.OAUTH_SECRET_ARN, routeKey).toMatch(/^arn:aws:secretsmanager:us-east-1:000000000000:secret:OAuthSettings-/);
      arns.add(fn?.environment.OAUTH_SECRET_ARN ?? '');
    }
    expect(arns.size).toBe(1);
    expect(api.deployment.functions.get(functionFor(api.deployment, 'GET /api/server/ping'))?.environment.OAUTH_SECRET_ARN).toBeUndefined();
  });

  it('answers a reader’s GetSecretValue with the provider’s settings, and refuses every other function, as IAM would', async () => {
    const reader = functionFor(api.deployment, 'GET /api/server/features');
    const arn = api.deployment.functions.get(reader)?.environment.OAUTH_SECRET_ARN ?? '';
    const { SecretString } = await secretsAs(reader).send(new GetSecretValueCommand({ SecretId: arn }));
    expect(JSON.parse(SecretString ?? '')).toEqual(settings);
    // The user's own account route reads no OAuth settings, so its role may not read them.
    const other = functionFor(api.deployment, 'GET /api/users/me');
    await expect(secretsAs(other).send(new GetSecretValueCommand({ SecretId: arn }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(denied).toEqual([`${other}: secretsmanager:GetSecretValue on ${arn}`]);
    denied.length = 0;
  });

  it('serves the server’s features through the distribution with the settings readable (no refused call, no failure)', async () => {
    const response = await fetch(`${origin}/api/server/features`);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('oauth');
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
