import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { accessClass } from '#infra/cdk/function-roles.ts';
import { ImmichStack } from '#infra/cdk/stack.ts';
import type { Route } from '#infra/routes.ts';

type Resource = { Properties: Record<string, any> };

/**
 * The functions that run models (docs/deployment.md, "Smart search and OCR"): the media function and
 * the routes whose row names the `ml` group. A small route table: one route that runs models (as
 * smart search's row does), one that reads originals and runs models, one that runs none.
 */
const rows: Route[] = [
  {
    operationId: 'searchSmart',
    method: 'POST',
    path: '/api/search/smart',
    entry: 'functions/server-info/ping-server.ts',
    data: 'read',
    lazy: ['ml'],
  },
  {
    operationId: 'getAssetOcr',
    method: 'GET',
    path: '/api/assets/{id}/ocr',
    entry: 'functions/server-info/ping-server.ts',
    data: 'read',
    store: 'read',
    lazy: ['ml'],
    memory: 4096,
  },
  { operationId: 'pingServer', method: 'GET', path: '/api/server-info/ping', entry: 'functions/server-info/ping-server.ts', data: 'read' },
];
const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:immich-ml-proxy-AbC123';

const synth = (context: Record<string, string> = {}): Template => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], largeUploads: 'off', ...context } });
  const stack = new ImmichStack(app, 'Test', { routes: rows });
  const stacks = [stack, ...stack.node.children.filter((child) => child instanceof NestedStack)];
  return Template.fromJSON({ Resources: Object.assign({}, ...stacks.map((each) => Template.fromStack(each).toJSON().Resources)) });
};

const functionOf = (template: Template, description: string): Resource => {
  const fn = Object.values(template.findResources('AWS::Lambda::Function')).find((each) =>
    String(each.Properties.Description).startsWith(description),
  ) as Resource | undefined;
  if (!fn) throw new Error(`No function ${description}`);
  return fn;
};

/** The statements of the policy on a function's role: a route's by its access class (one role each), the media function's by its own. */
const statementsOf = (
  template: Template,
  fn: Resource,
  route?: Route,
): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] => {
  const role = route
    ? new RegExp(`^FunctionRoles${accessClass(route)}[0-9A-F]{8}$`)
    : new RegExp(`^${String((fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0])}$`);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Resource[];
  return policies
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((ref) => role.test(ref.Ref)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
};
const routeStatements = (template: Template, operationId: string) => {
  const route = rows.find((row) => row.operationId === operationId) as Route;
  return statementsOf(template, functionOf(template, `Immich API ${operationId} (`), route);
};

const actions = (statements: { Action: string | string[] }[]): string[] => statements.flatMap((st) => [st.Action].flat());

describe('the functions that run models', () => {
  const template = synth();
  const withSecret = synth({ mlAuthSecretArn: secretArn });

  it('give a route that runs models at least 3,008 MB, 2 GiB of /tmp and the models’ bucket; a route that runs none, none of it', () => {
    const smart = functionOf(template, 'Immich API searchSmart (');
    expect(smart.Properties.MemorySize).toBe(3008);
    expect(smart.Properties.EphemeralStorage).toEqual({ Size: 2048 });
    expect(JSON.stringify(smart.Properties.Environment.Variables.ML_MODELS_BUCKET)).toMatch(/Originals/);
    expect(smart.Properties.Environment.Variables.ML_AUTH_SECRET_ARN).toBeUndefined();
    // A row's own memory above the floor is kept.
    expect(functionOf(template, 'Immich API getAssetOcr (').Properties.MemorySize).toBe(4096);
    const ping = functionOf(template, 'Immich API pingServer (');
    expect(ping.Properties.MemorySize).toBe(512);
    expect(ping.Properties.EphemeralStorage).toBeUndefined();
    expect(ping.Properties.Environment.Variables.ML_MODELS_BUCKET).toBeUndefined();
  });

  it('let a route that runs models read and list only models/, and read no secret unless given one', () => {
    const smart = routeStatements(template, 'searchSmart');
    const reads = smart.filter((st) => actions([st]).includes('s3:GetObject'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]?.Resource)).toMatch(/"\/models\/\*"/);
    const lists = smart.filter((st) => actions([st]).includes('s3:ListBucket'));
    expect(lists).toHaveLength(1);
    expect(lists[0]?.Condition).toEqual({ StringLike: { 's3:prefix': ['models/*'] } });
    expect(JSON.stringify(lists[0]?.Resource)).not.toContain('/*');
    expect(actions(smart)).not.toContain('secretsmanager:GetSecretValue');
    // A route that reads originals already reads models/: only the listing is added.
    const ocr = routeStatements(template, 'getAssetOcr');
    expect(ocr.filter((st) => actions([st]).includes('s3:GetObject')).map((st) => JSON.stringify(st.Resource))).toEqual([
      expect.stringMatching(/"\/\*"/),
    ]);
    expect(actions(ocr)).toContain('s3:ListBucket');
    const ping = routeStatements(template, 'pingServer');
    for (const action of ['s3:GetObject', 's3:ListBucket', 'secretsmanager:GetSecretValue']) expect(actions(ping)).not.toContain(action);
  });

  it('give the media function the models’ bucket and the listing of models/', () => {
    const media = functionOf(template, 'Immich media:');
    expect(JSON.stringify(media.Properties.Environment.Variables.ML_MODELS_BUCKET)).toMatch(/Originals/);
    expect(media.Properties.EphemeralStorage.Size).toBeGreaterThanOrEqual(1024);
    expect(actions(statementsOf(template, media))).toContain('s3:ListBucket');
    expect(actions(statementsOf(template, media))).not.toContain('secretsmanager:GetSecretValue');
  });

  it('with -c mlAuthSecretArn, give that secret’s ARN to the media function and the routes that run models, and let them read that one secret', () => {
    for (const [description, operationId] of [
      ['Immich media:'],
      ['Immich API searchSmart (', 'searchSmart'],
      ['Immich API getAssetOcr (', 'getAssetOcr'],
    ]) {
      const fn = functionOf(withSecret, description as string);
      expect(fn.Properties.Environment.Variables.ML_AUTH_SECRET_ARN, description).toBe(secretArn);
      const statements = operationId ? routeStatements(withSecret, operationId) : statementsOf(withSecret, fn);
      const reads = statements.filter((st) => actions([st]).includes('secretsmanager:GetSecretValue'));
      expect(reads.map((st) => st.Resource)).toEqual([secretArn]);
    }
    const ping = functionOf(withSecret, 'Immich API pingServer (');
    expect(ping.Properties.Environment.Variables.ML_AUTH_SECRET_ARN).toBeUndefined();
    expect(actions(routeStatements(withSecret, 'pingServer'))).not.toContain('secretsmanager:GetSecretValue');
  });

  it('refuse a secret ARN that is not a full one (IAM would match no secret)', () => {
    expect(() => synth({ mlAuthSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:immich-ml-proxy' })).toThrow(
      /mlAuthSecretArn must be a secret's full ARN/,
    );
  });

  it('leave cdk-nag nothing to find, with and without the secret', () => {
    for (const context of [{}, { mlAuthSecretArn: secretArn }]) {
      const outdir = mkdtempSync(join(tmpdir(), 'nag-ml-'));
      try {
        const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], largeUploads: 'off', ...context } });
        new ImmichStack(app, 'Nagged', { env: { region: 'eu-west-1' }, routes: rows });
        Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
        expect(() => app.synth()).not.toThrow();
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    }
  });
});
