/**
 * `-c oauth=cognito` (infra/cdk/cognito.ts): the user pool, its hosted sign-in domain, the app
 * client, the secret the OAuth functions read, and who may read it. One synth of a few routes
 * with cdk-nag's rules, shared by the file (about 3 s here), instead of another synth of every route.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cognitoDomainPrefix, oauthMode, readsOAuthSettings } from '#infra/cdk/cognito.ts';
import { ImmichStack } from '#infra/cdk/stack.ts';
import { type Route, routes } from '#infra/routes.ts';

type Json = Record<string, any>;

const row = (method: Route['method'], path: string): Route => {
  const found = routes.find((route) => route.path === path && route.method === method);
  if (!found) throw new Error(`no route ${method} ${path}`);
  return found;
};
// The OAuth settings' readers of both generations, routes that read none, and the streaming
// route (an origin of the distribution whose domain the client's callback URLs name: no cycle).
const rows: Route[] = [
  row('GET', '/api/server-info/ping'),
  row('GET', '/api/server/features'),
  row('GET', '/api/server-info/config'),
  row('GET', '/api/server-info/features'),
  row('GET', '/api/system-config'),
  row('POST', '/api/oauth/authorize'),
  row('POST', '/api/sync/stream'),
];

let outdir: string;
let stack: ImmichStack;
let templates: Json[];
let main: Template;
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'cognito-'));
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], oauth: 'cognito' } });
  stack = new ImmichStack(app, 'Family', { env: { region: 'eu-west-1', account: '123456789012' }, routes: rows });
  // cdk-nag's rules, as on every synth: a finding neither fixed nor acknowledged throws.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  app.synth();
  main = Template.fromStack(stack);
  templates = [stack, ...stack.node.children.filter((child) => child instanceof NestedStack)].map((each) =>
    Template.fromStack(each as Stack).toJSON(),
  );
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const resources = (type: string): [string, Json][] =>
  templates.flatMap((template) => Object.entries(template.Resources as Json).filter(([, resource]) => resource.Type === type));
const only = (type: string): [string, Json] => {
  const found = resources(type);
  expect(found, type).toHaveLength(1);
  return found[0] as [string, Json];
};

describe('-c oauth=cognito', () => {
  it('makes a Lite user pool only the admin adds accounts to, with a strong password policy, optional TOTP, kept when the stack goes', () => {
    const [, pool] = only('AWS::Cognito::UserPool');
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      UserPoolTier: 'LITE',
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      DeletionProtection: 'ACTIVE',
      Policies: {
        PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true },
      },
    });
  });

  it('has Cognito’s hosted sign-in page on a domain named after the stack, with a hash', () => {
    const [, domain] = only('AWS::Cognito::UserPoolDomain');
    expect(domain.Properties.Domain).toMatch(/^family-[0-9a-f]{10}$/);
    expect(domain.Properties.ManagedLoginVersion).toBe(1);
  });

  it('has one confidential app client: code grant, openid/email/profile, sent back only to the web app’s pages and the mobile redirect', () => {
    const [, client] = only('AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      GenerateSecret: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
    });
    const [distributionId] = only('AWS::CloudFront::Distribution');
    const urls = (client.Properties.CallbackURLs as Json[]).map((url) => {
      // `https://` + the distribution's domain + the path, joined at deploy time.
      const [separator, parts] = url['Fn::Join'] as [string, unknown[]];
      expect(separator).toBe('');
      expect(parts[1]).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
      return `${parts[0]}<distribution>${parts[2]}`;
    });
    expect(urls).toEqual([
      'https://<distribution>/auth/login',
      'https://<distribution>/user-settings',
      'https://<distribution>/api/oauth/mobile-redirect',
    ]);
  });

  it('keeps the issuer, client id and client secret, and the mobile redirect override, in a secret, the client secret passed at deploy time, never in the template', () => {
    const [clientId] = only('AWS::Cognito::UserPoolClient');
    const [poolId] = only('AWS::Cognito::UserPool');
    const [distributionId] = only('AWS::CloudFront::Distribution');
    const [describeId, describe] = only('Custom::DescribeCognitoUserPoolClient');
    // DescribeUserPoolClient's answer is not logged by CDK's handler.
    expect(JSON.stringify(describe.Properties.Update)).toContain('logApiResponseData\\":false');
    const secrets = resources('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('OAuthSettings'));
    expect(secrets).toHaveLength(1);
    const [, secret] = secrets[0] as [string, Json];
    const [, parts] = secret.Properties.SecretString['Fn::Join'] as [string, unknown[]];
    // The JSON CloudFormation writes, each deploy-time value a placeholder: `<its intrinsic>`.
    const tokens = parts.filter((part) => typeof part !== 'string');
    const text = parts.map((part) => (typeof part === 'string' ? part : `@${tokens.indexOf(part)}@`)).join('');
    const shown = (value: unknown): unknown =>
      typeof value === 'string' ? value.replace(/@(\d+)@/g, (_, index) => `<${JSON.stringify(tokens[Number(index)])}>`) : value;
    const written = Object.fromEntries(
      Object.entries(JSON.parse(text) as Record<string, unknown>).map(([key, value]) => [key, shown(value)]),
    );
    // Exactly the fields the server reads (shared/storage/oauth-settings.ts), the mobile app's
    // redirect on the distribution as Cognito's callback list has it.
    expect(written).toEqual({
      issuerUrl: `<${JSON.stringify({ 'Fn::GetAtt': [poolId, 'ProviderURL'] })}>`,
      clientId: `<${JSON.stringify({ Ref: clientId })}>`,
      clientSecret: `<${JSON.stringify({ 'Fn::GetAtt': [describeId, 'UserPoolClient.ClientSecret'] })}>`,
      mobileOverrideEnabled: true,
      mobileRedirectUri: `https://<${JSON.stringify({ 'Fn::GetAtt': [distributionId, 'DomainName'] })}>/api/oauth/mobile-redirect`,
    });
  });

  it('gives OAUTH_SECRET_ARN, and GetSecretValue on that secret, to the functions that read the OAuth settings and to no other', () => {
    const [secretId] = resources('AWS::SecretsManager::Secret').find(([id]) => id.startsWith('OAuthSettings')) as [string, Json];
    const functions = resources('AWS::Lambda::Function').filter(([, fn]) => String(fn.Properties.Description).startsWith('Immich API'));
    const given = functions
      .filter(([, fn]) => fn.Properties.Environment?.Variables?.OAUTH_SECRET_ARN !== undefined)
      .map(([, fn]) => /\((\w+) (\S+)\)$/.exec(String(fn.Properties.Description))?.slice(1).join(' '))
      .sort();
    // The rows with `oauthSecret` of those synthesized; not server-info/config, ping or the sync stream.
    expect(given).toEqual([
      'GET /api/server-info/features',
      'GET /api/server/features',
      'GET /api/system-config',
      'POST /api/oauth/authorize',
    ]);
    // In a nested stack the ARN is a parameter the main stack passes: the OAuth secret's Ref.
    const passed = JSON.stringify(main.toJSON().Resources);
    expect(passed).toContain(`{"Ref":"${secretId}"}`);
    // Only the OAuth settings' roles read it; the others' roles cannot.
    const policies = resources('AWS::IAM::Policy');
    const readers = policies.filter(([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes(`"Ref":"${secretId}"`));
    expect(readers.length).toBeGreaterThan(0);
    for (const [, policy] of readers) {
      for (const ref of policy.Properties.Roles as { Ref: string }[]) expect(ref.Ref).toMatch(/^FunctionRoles\w+OAuthSettings[0-9A-F]{8}$/);
      const statement = (policy.Properties.PolicyDocument.Statement as Json[]).find((st) => JSON.stringify(st.Resource).includes(secretId));
      expect(statement).toMatchObject({ Action: 'secretsmanager:GetSecretValue', Effect: 'Allow', Resource: { Ref: secretId } });
    }
    const ping = functions.find(([, fn]) => String(fn.Properties.Description).includes('(GET /api/server-info/ping)'));
    expect(JSON.stringify(ping?.[1].Properties.Role)).not.toContain('OAuthSettings');
  });

  it('outputs the hosted sign-in page, the user pool id and the mobile redirect the secret turns on', () => {
    main.hasOutput('OAuthSignInUrl', {
      Value: Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['https://', '.auth.eu-west-1.amazoncognito.com'])] }),
    });
    main.hasOutput('OAuthUserPoolId', { Value: { Ref: only('AWS::Cognito::UserPool')[0] } });
    main.hasOutput('OAuthMobileRedirectUri', {
      Value: {
        'Fn::Join': [
          '',
          ['https://', { 'Fn::GetAtt': [only('AWS::CloudFront::Distribution')[0], 'DomainName'] }, '/api/oauth/mobile-redirect'],
        ],
      },
    });
  });

  it('has no circular dependency: the client names the distribution, which names none of the secret’s readers', () => {
    for (const template of templates) {
      const graph = new Map<string, Set<string>>();
      const ids = new Set(Object.keys(template.Resources as Json));
      for (const [id, resource] of Object.entries(template.Resources as Record<string, Json>)) {
        const edges = new Set<string>([resource.DependsOn ?? []].flat());
        JSON.stringify(resource.Properties ?? {}).replace(/"(?:Ref|Fn::GetAtt)":\["?([A-Za-z0-9]+)|"Ref":"([A-Za-z0-9]+)"/g, (_m, a, b) => {
          const target = a ?? b;
          if (ids.has(target)) edges.add(target);
          return '';
        });
        graph.set(id, edges);
      }
      const state = new Map<string, 'open' | 'done'>();
      const visit = (id: string, path: string[]): void => {
        if (state.get(id) === 'done') return;
        if (state.get(id) === 'open') throw new Error(`cycle: ${[...path, id].join(' -> ')}`);
        state.set(id, 'open');
        for (const next of graph.get(id) ?? []) visit(next, [...path, id]);
        state.set(id, 'done');
      };
      for (const id of graph.keys()) visit(id, []);
    }
  });
});

describe('the OAuth settings’ readers and the domain prefix', () => {
  it('gives the settings to exactly the rows that say `oauthSecret`: the admin configuration, the features, the logout, the /oauth routes that use the provider', () => {
    const readers = routes.filter(readsOAuthSettings).map((route) => `${route.method} ${route.path}`);
    expect(readers).toEqual(routes.filter((route) => route.oauthSecret).map((route) => `${route.method} ${route.path}`));
    expect(readers).toEqual(
      expect.arrayContaining([
        'GET /api/system-config',
        'PUT /api/admin/config',
        'GET /api/server/features',
        'GET /api/server-info/features',
        'POST /api/auth/logout',
        'POST /api/oauth/callback',
      ]),
    );
    // The mobile redirect needs neither the provider nor the secret.
    expect(readers).not.toContain('GET /api/oauth/mobile-redirect');
  });

  it('makes a valid, per-account prefix without the words Cognito refuses, unless one is given', () => {
    const prefixOf = (id: string, account: string | undefined, context: Record<string, string> = {}): string =>
      cognitoDomainPrefix(new Stack(new App({ context }), id, { env: { region: 'eu-west-1', ...(account ? { account } : {}) } }));
    const prefix = prefixOf('MyAwsImmich', '111111111111');
    expect(prefix).toMatch(/^my-immich-[0-9a-f]{10}$/);
    expect(prefix).not.toEqual(prefixOf('MyAwsImmich', '222222222222'));
    expect(prefixOf('MyAwsImmich', undefined)).toMatch(/^my-immich-[0-9a-f]{10}$/);
    expect(prefixOf('Cognito', '111111111111')).toMatch(/^immich-[0-9a-f]{10}$/);
    expect(prefixOf('X', undefined, { oauthDomainPrefix: 'our-family-photos' })).toBe('our-family-photos');
  });

  it('refuses an unknown provider by name instead of deploying none', () => {
    const mode = (oauth: string | undefined) => oauthMode(new App({ context: oauth === undefined ? {} : { oauth } }));
    expect(mode(undefined)).toBeUndefined();
    expect(mode('off')).toBeUndefined();
    expect(mode('cognito')).toBe('cognito');
    expect(() => mode('keycloak')).toThrow(/Unknown -c oauth=keycloak/);
  });
});
