import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, type Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessClass } from '#infra/cdk/function-roles.ts';
import { largeUploadsMode } from '#infra/cdk/ingress.ts';
import { ImmichStack } from '#infra/cdk/stack.ts';
import { type Route, routes } from '#infra/routes.ts';
import { sessionUseAttributes } from '#shared/model/session.ts';

type Resource = { Properties: Record<string, any> };
const values = (resources: Record<string, Record<string, any>>): Resource[] => Object.values(resources) as Resource[];

// No bundling in assertion tests: they check the stack's shape, the synth test builds the code.
// The answer holds the resources of the main stack and of every nested stack together.
const synth = (rows?: readonly Route[], context: Record<string, string> = {}): Template => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new ImmichStack(app, 'Test', rows ? { routes: rows } : {});
  const stacks = [stack, ...stack.node.children.filter((child) => child instanceof NestedStack)];
  const resources = stacks.map((each) => Template.fromStack(each).toJSON().Resources as Record<string, unknown>);
  const main = Template.fromStack(stack).toJSON();
  return Template.fromJSON({ Resources: Object.assign({}, ...resources), Outputs: main.Outputs, Parameters: main.Parameters });
};

/** The IAM policy of the role a route's function runs with (one role per access class). */
const policyOf = (template: Template, route: Route): Resource | undefined => {
  const role = new RegExp(`^FunctionRoles${accessClass(route)}[0-9A-F]{8}$`);
  return values(template.findResources('AWS::IAM::Policy')).find((policy) =>
    (policy.Properties.Roles as { Ref: string }[]).some((ref) => role.test(ref.Ref)),
  );
};
/** The stack of every route with no context, synthesized once for the whole file (a synth costs seconds). */
let everyRoute: Template | undefined;
const defaultTemplate = (): Template => {
  everyRoute ??= synth();
  return everyRoute;
};
const synthWith = (context: Record<string, string>): Template =>
  synth(
    [
      {
        operationId: 'pingServer',
        method: 'GET',
        path: '/api/server-info/ping',
        entry: 'functions/server-info/ping-server.ts',
        data: 'none',
      },
    ],
    context,
  );

describe('ImmichStack', () => {
  let template: Template;
  beforeAll(() => {
    template = defaultTemplate();
  });
  // Each small variant synthesized once, for the tests that read it (a synth costs seconds).
  const variant = <T>(make: () => T): (() => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  // Tuned throttling, with the ingress on demand in a zone of the deployer's choice.
  const tuned = variant(() =>
    synthWith({
      throttleRate: '5',
      throttleBurst: '10',
      largeUploads: 'ondemand',
      ingressAvailabilityZone: 'eu-west-1b',
      transcodeLambdaMaxSeconds: '300',
      transcodeConcurrency: '2',
    }),
  );
  // Without transcoding (videos play as their originals).
  const untranscoded = variant(() => synth(undefined, { transcoding: 'off', largeUploads: 'off' }));
  // Alarms mailed, without the ingress.
  const mailed = variant(() => synthWith({ alarmEmail: 'me@example.com', largeUploads: 'off' }));

  it('has one on-demand table with point-in-time recovery, TTL, the GSIs, and RETAIN', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        GlobalSecondaryIndexes: [
          ...['gsi1', 'gsi2', 'gsi3', 'make', 'model', 'lensModel', 'city', 'state', 'country'].map((name) =>
            Match.objectLike({ IndexName: name, Projection: { ProjectionType: 'ALL' } }),
          ),
          // The folders view reads only where an asset is and where it shows.
          Match.objectLike({
            IndexName: 'folder',
            KeySchema: [
              { AttributeName: 'ownerId', KeyType: 'HASH' },
              { AttributeName: 'originalPath', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['visibility', 'deletedAt', 'isVisible', 'isArchived'] },
          }),
          // The map reads each marker's position, place and the flags its filters read (docs/places.md).
          Match.objectLike({
            IndexName: 'geo',
            KeySchema: [
              { AttributeName: 'ix_geo', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: {
              ProjectionType: 'INCLUDE',
              NonKeyAttributes: ['exif', 'visibility', 'deletedAt', 'isFavorite', 'isVisible', 'isArchived'],
            },
          }),
        ],
        Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      }),
    });
  });

  it('has one HTTP API with a route for every row and $default for the rest', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const keys = values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    for (const route of routes.filter((r) => r.path !== '$default' && !r.stream)) expect(keys).toContain(`${route.method} ${route.path}`);
    expect(keys).toContain('ANY /{proxy+}');
    // HEAD beside the GET of the file routes the web app's Cast asks a type of, and of no other.
    expect(keys.filter((key) => key.startsWith('HEAD ')).sort()).toEqual(
      ['/api/assets/{id}/original', '/api/assets/{id}/thumbnail', '/api/assets/{id}/video/playback'].map((path) => `HEAD ${path}`),
    );
    // A streamed answer cannot pass API Gateway: those routes are function URLs (below).
    for (const route of routes.filter((r) => r.stream)) expect(keys).not.toContain(`${route.method} ${route.path}`);
  });

  it('serves each streaming route from a function URL in RESPONSE_STREAM mode, open only to what sends the stack’s token', () => {
    const streaming = routes.filter((r) => r.stream);
    // The sync stream, and both generations' map markers (every marker in one answer: docs/places.md, "The map").
    expect(streaming.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['GET /api/asset/map-marker', 'GET /api/map/markers', 'POST /api/sync/stream'].sort(),
    );
    const urls = values(template.findResources('AWS::Lambda::Url'));
    expect(urls).toHaveLength(streaming.length);
    for (const url of urls) expect(url.Properties).toMatchObject({ AuthType: 'NONE', InvokeMode: 'RESPONSE_STREAM' });
    const functions = values(template.findResources('AWS::Lambda::Function'));
    const streamers = streaming.map((route) =>
      functions.find((each) => String(each.Properties.Description).includes(`(${route.method} ${route.path})`)),
    );
    for (const fn of streamers) {
      // The token the distribution sends (the stack id's UUID), and minutes to stream a large library.
      expect(fn?.Properties.Environment.Variables.ORIGIN_VERIFY).toBeDefined();
      expect(fn?.Properties.Timeout).toBe(300);
    }
    for (const other of functions)
      if (!streamers.includes(other)) expect(other.Properties.Environment?.Variables?.ORIGIN_VERIFY).toBeUndefined();
  });

  it('makes one arm64 nodejs24.x function per route, the media function, the transcode function, the nightly tasks and the socket’s four, each with its own log group', () => {
    const functions = values(template.findResources('AWS::Lambda::Function')).filter((f) =>
      String(f.Properties.Description).startsWith('Immich '),
    );
    expect(functions).toHaveLength(routes.length + 3 + 4);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
      expect(fn.Properties.LoggingConfig?.LogGroup).toBeDefined();
    }
    // One per function, the API's access log, and the ingress's (infra/cdk/ingress.ts).
    template.resourceCountIs('AWS::Logs::LogGroup', routes.length + 3 + 4 + 1 + 1);
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    // Each under a name of its own; v1.100's map markers, moved to the `map` area's nested stack, under
    // that area's name, so an update creating it there never asks for the name its old stack still holds.
    const names = values(template.findResources('AWS::Logs::LogGroup')).map((g) => String(g.Properties.LogGroupName));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('/immich/Test/map/get-map-markers');
    expect(names).not.toContain('/immich/Test/get-map-markers');
    expect(names).toContain('/immich/Test/v3-get-map-markers');
  });

  it('lets nothing deleted stay by accident: noncurrent versions and delete markers expire, unfinished multipart uploads are aborted', () => {
    const [bucket] = values(template.findResources('AWS::S3::Bucket'));
    const rules = bucket?.Properties.LifecycleConfiguration?.Rules ?? [];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          NoncurrentVersionExpiration: { NoncurrentDays: 1 },
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true, Status: 'Enabled' }),
      ]),
    );
  });

  it('throttles the API (a personal server: 50 requests/s, bursts of 100, set by context) and logs one line per request without credentials', () => {
    const [stage] = values(template.findResources('AWS::ApiGatewayV2::Stage', { Properties: { StageName: '$default' } }));
    expect(stage?.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    const format = String(stage?.Properties.AccessLogSettings?.Format);
    expect(JSON.parse(format)).toMatchObject({ requestId: '$context.requestId', route: '$context.routeKey', status: '$context.status' });
    expect(format).not.toMatch(/header|authorization|querystring|body/i);
    expect(
      values(tuned().findResources('AWS::ApiGatewayV2::Stage', { Properties: { StageName: '$default' } }))[0]?.Properties
        .DefaultRouteSettings,
    ).toEqual({
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 10,
    });
  });

  it('alarms on API 5xx, answered 500s and throttles; mails them when given an address by context', () => {
    const alarms = values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.map((alarm) => alarm.Properties.MetricName).sort()).toEqual([
      '5xx',
      // The dead-letter queues of the media, transcode and nightly functions.
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesVisible',
      // The ingress's (infra/cdk/ingress.ts).
      'IngressDiskFreePercent',
      'IngressHeartbeat',
      'StatusCheckFailed',
      'Throttles',
      'serverErrors',
    ]);
    expect(alarms.every((alarm) => alarm.Properties.AlarmActions?.length === 1)).toBe(true);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    mailed().hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'me@example.com',
    });
  });

  it('ticks the nightly tasks every hour from EventBridge, retried and dead-lettered, with a role that reaches the table and deletes originals', () => {
    const [rule, ...others] = values(template.findResources('AWS::Events::Rule')).filter((each) =>
      String(each.Properties.Description).startsWith('Immich nightly tasks'),
    );
    expect(others).toEqual([]);
    expect(rule?.Properties.ScheduleExpression).toBe('rate(1 hour)');
    const [target] = rule?.Properties.Targets ?? [];
    expect(target).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 } });
    expect(target.DeadLetterConfig?.Arn).toBeDefined();
    const [id, fn] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([, each]) =>
      String(each.Properties.Description).startsWith('Immich nightly tasks'),
    ) ?? ['', undefined];
    expect(JSON.stringify(target.Arn)).toContain(id);
    expect(fn?.Properties).toMatchObject({
      Timeout: 900,
      MemorySize: 512,
      Environment: { Variables: { TABLE_NAME: expect.anything(), ORIGINALS_BUCKET: expect.anything() } },
    });
    const roleId = String(fn?.Properties.Role['Fn::GetAtt'][0]);
    const policy = values(template.findResources('AWS::IAM::Policy')).find((p) => JSON.stringify(p.Properties.Roles).includes(roleId));
    const actions = JSON.stringify(policy?.Properties.PolicyDocument);
    expect(actions).toContain('dynamodb:ConditionCheckItem');
    // The trash's expired assets and purged users' files go as DELETE /asset with force removes them.
    const s3 = ((policy?.Properties.PolicyDocument.Statement ?? []) as { Action: string | string[] }[])
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => action.startsWith('s3:'));
    expect(s3.sort()).toEqual(['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:DeleteObjectVersion']);
    for (const other of ['s3:GetObject', 's3:PutObject', 'lambda:', 'secretsmanager:']) expect(actions).not.toContain(other);
  });

  it('writes the functions’ generation to the table once a deploy has put every function in place (album sync markers are learnt under it)', () => {
    const generationOf = (each: Template): string => {
      const marks = Object.values(each.findResources('Custom::DeploymentGeneration'));
      expect(marks).toHaveLength(1);
      const call = JSON.stringify(marks[0]?.Properties.Update);
      expect(call).toContain('\\"action\\":\\"PutItem\\"');
      expect(call).toContain('\\"pk\\":{\\"S\\":\\"SYSTEM\\"},\\"sk\\":{\\"S\\":\\"DEPLOYMENT\\"}');
      return /\\"generation\\":\{\\"S\\":\\"([0-9a-f]{16})\\"\}/.exec(call)?.[1] ?? '';
    };
    const [id, mark] = Object.entries(template.findResources('Custom::DeploymentGeneration'))[0] ?? ['', undefined];
    expect(JSON.stringify(mark?.Properties.Update)).toContain('"Ref":"TableCD117FA1"');
    // After every route stack and every function outside them (whose code a deploy replaces).
    const dependsOn = new Set<string>(mark?.DependsOn ?? []);
    const routeStacks = Object.keys(template.findResources('AWS::CloudFormation::Stack'));
    expect(routeStacks.length).toBeGreaterThan(10);
    for (const stack of routeStacks) expect(dependsOn).toContain(stack);
    const mainFunctions = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, fn]) =>
      /^Immich (nightly tasks|media)/.test(String(fn.Properties.Description)),
    );
    expect(mainFunctions).toHaveLength(2);
    for (const [fnId] of mainFunctions) expect(dependsOn).toContain(fnId);
    // Its handler may only put and delete items in the table (the item goes with the resource).
    const policy = Object.entries(template.findResources('AWS::IAM::Policy')).find(
      ([policyId]) => dependsOn.has(policyId) && policyId.startsWith(id.slice(0, 24)),
    );
    const statements = (policy?.[1].Properties.PolicyDocument.Statement ?? []) as { Action: string | string[]; Resource: unknown }[];
    expect(statements.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(['dynamodb:DeleteItem', 'dynamodb:PutItem']);
    for (const statement of statements) expect(statement.Resource).toEqual({ 'Fn::GetAtt': ['TableCD117FA1', 'Arn'] });
    const removal = JSON.stringify(mark?.Properties.Delete);
    expect(removal).toContain('\\"action\\":\\"DeleteItem\\"');
    expect(removal).toContain('\\"Key\\":{\\"pk\\":{\\"S\\":\\"SYSTEM\\"},\\"sk\\":{\\"S\\":\\"DEPLOYMENT\\"}}');
    // The same functions' code, the same generation; another function's, another.
    const ping = routes.filter((route) => route.operationId === 'pingServer');
    const more = routes.filter((route) => route.operationId === 'pingServer' || route.operationId === 'getServerVersion');
    const once = generationOf(synth(ping));
    expect(generationOf(synth(ping))).toBe(once);
    expect(generationOf(synth(more))).not.toBe(once);
    expect(generationOf(template)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives the product keys’ public keys, when set by context, to the two routes that verify keys alone', () => {
    const rows = routes.filter((route) => ['setServerLicense', 'setUserLicense', 'getServerLicense'].includes(route.operationId));
    const keyed = synth(rows, { licensePublicKeyServer: 'c2VydmVy', licensePublicKeyClient: 'Y2xpZW50' });
    const functions = values(keyed.findResources('AWS::Lambda::Function')).filter((f) =>
      String(f.Properties.Description).startsWith('Immich API'),
    );
    const envOf = (operationId: string) =>
      functions.find((f) => String(f.Properties.Description).includes(`:${operationId} `))?.Properties.Environment.Variables;
    for (const operationId of ['setServerLicense', 'setUserLicense'])
      expect(envOf(operationId)).toMatchObject({ LICENSE_PUBLIC_KEY_SERVER: 'c2VydmVy', LICENSE_PUBLIC_KEY_CLIENT: 'Y2xpZW50' });
    expect(envOf('getServerLicense')).not.toHaveProperty('LICENSE_PUBLIC_KEY_SERVER');
    // Not given, no function has them (no key then verifies): the file's stack of every route.
    const plain = values(template.findResources('AWS::Lambda::Function'));
    for (const f of plain) expect(f.Properties.Environment?.Variables ?? {}).not.toHaveProperty('LICENSE_PUBLIC_KEY_SERVER');
  });

  it('deploys onto a retained table, bucket and secret when given them by context, creating none', () => {
    const secretArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:SharedLinkSecret-AbCdEf';
    // The table, bucket and secret are the stack's whatever its routes: three routes that use them
    // (a synth of every route cost this test seconds for nothing more).
    const rows = routes.filter((route) => !route.generation && ['login', 'uploadFile', 'getMySharedLink'].includes(route.operationId));
    expect(rows).toHaveLength(3);
    const again = synth(rows, {
      existingTableName: 'kept-table',
      existingBucketName: 'kept-originals',
      existingLinkSecretArn: secretArn,
    });
    for (const type of ['AWS::DynamoDB::GlobalTable', 'AWS::SecretsManager::Secret']) again.resourceCountIs(type, 0);
    // The one bucket made is the web app's (web-distribution.test.ts), never an originals bucket.
    expect(values(again.findResources('AWS::S3::Bucket')).filter((bucket) => bucket.Properties.VersioningConfiguration)).toEqual([]);
    const functions = values(again.findResources('AWS::Lambda::Function'));
    const login = functions.find((f) => String(f.Properties.Description).includes('login ('));
    expect(login?.Properties.Environment.Variables.TABLE_NAME).toBe('kept-table');
    const upload = functions.find((f) => String(f.Properties.Description).includes('uploadFile ('));
    expect(upload?.Properties.Environment.Variables.ORIGINALS_BUCKET).toBe('kept-originals');
    const link = functions.find((f) => String(f.Properties.Description).includes('getMySharedLink ('));
    expect(link?.Properties.Environment.Variables.SHARED_LINK_SECRET_ARN).toBe(secretArn);
    const policies = JSON.stringify(values(again.findResources('AWS::IAM::Policy')));
    expect(policies).toContain('table/kept-table');
    expect(policies).toContain('kept-originals/*');
  });

  it('caps the password-hashing routes open to guessing (sign-in, shared-link passwords, PIN codes) only when the deployer asks (a new account could not deploy otherwise)', () => {
    const reserved = (t: Template) =>
      values(t.findResources('AWS::Lambda::Function'))
        .filter((f) => f.Properties.ReservedConcurrentExecutions !== undefined)
        .map((f) => [String(f.Properties.Description).split(' ')[2], f.Properties.ReservedConcurrentExecutions]);
    expect(reserved(template)).toEqual([]);
    expect(reserved(synth(undefined, { hashingConcurrency: '5' })).sort()).toEqual([
      ['getMySharedLink', 5],
      ['login', 5],
      ['signUpAdmin', 5],
      ['v3:changePinCode', 5],
      ['v3:getMySharedLink', 5],
      ['v3:resetPinCode', 5],
      ['v3:sharedLinkLogin', 5],
      ['v3:unlockAuthSession', 5],
    ]);
  });

  it('protects the table from deletion', () => {
    const [table] = values(template.findResources('AWS::DynamoDB::GlobalTable'));
    expect(table?.Properties.Replicas?.[0]?.DeletionProtectionEnabled).toBe(true);
  });

  it('keeps originals in one private, encrypted, versioned bucket that outlives the stack', () => {
    // Two buckets: the originals and the web app's build (web-distribution.test.ts).
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      }),
    });
    // enforceSSL: a bucket policy denying plain HTTP.
    expect(JSON.stringify(template.findResources('AWS::S3::BucketPolicy'))).toContain('aws:SecureTransport');
  });

  it('gives each function its route row’s body limit, checked before parsing (the upload function reads its own)', () => {
    const functions = values(template.findResources('AWS::Lambda::Function'));
    const limitOf = (operationId: string) =>
      functions.find((f) => String(f.Properties.Description).includes(`${operationId} (`))?.Properties.Environment?.Variables
        ?.MAX_BODY_BYTES;
    expect(limitOf('login')).toBe(String(1024 * 1024));
    expect(limitOf('createAlbum')).toBe(String(Math.floor(5.5 * 1024 * 1024)));
    expect(limitOf('checkBulkUpload')).toBe(String(Math.floor(5.5 * 1024 * 1024)));
    expect(limitOf('uploadFile')).toBeUndefined();
  });

  it('lets only the routes with store access touch the bucket; the upload function has the deployed upload limit', () => {
    const functions = values(template.findResources('AWS::Lambda::Function'));
    const upload = functions.find((f) => String(f.Properties.Description).includes('uploadFile'));
    expect(upload?.Properties.Environment.Variables).toMatchObject({ ORIGINALS_BUCKET: expect.anything(), MAX_UPLOAD_MB: '4.4' });
    expect(upload?.Properties.MemorySize).toBe(1024);
    const storeRoutes = routes
      .filter((route) => route.store)
      .map(
        (route) =>
          `${route.generation ? `${route.generation}:` : ''}${route.operationId.charAt(0).toUpperCase()}${route.operationId.slice(1)}`,
      );
    // In any order: the table is grouped by area.
    expect(storeRoutes.toSorted()).toEqual(
      [
        'CreateProfileImage',
        'DeleteProfileImage',
        'GetProfileImage',
        'UploadFile',
        'CreateUploadSession',
        'GetUploadSession',
        'CompleteUploadSession',
        'DeleteUploadSession',
        // A deleted user's upload sessions are aborted with them.
        'DeleteUser',
        'ServeFile',
        'DownloadArchive',
        'DownloadFile',
        'GetAssetThumbnail',
        'GetPersonThumbnail',
        'MergePerson',
        'DeleteAssets',
        'EmptyTrash',
        // Smart search reads an owner's packed embedding index (docs/search.md), v1.100's GET /search with `clip` too.
        'Search',
        'SearchSmart',
        // Immich v3's routes over the same files.
        'v3:UploadAsset',
        'v3:DeleteAssets',
        'v3:DownloadAsset',
        'v3:ViewAsset',
        'v3:PlayAssetVideo',
        'v3:ResolveDuplicates',
        'v3:DeleteUserAdmin',
        'v3:CreateProfileImage',
        'v3:DeleteProfileImage',
        'v3:GetProfileImage',
        'v3:GetPersonThumbnail',
        'v3:MergePersonLegacy',
      ].toSorted(),
    );
    const withBucket = functions.filter(
      (f) =>
        f.Properties.Environment?.Variables?.ORIGINALS_BUCKET !== undefined && String(f.Properties.Description).startsWith('Immich API'),
    );
    expect(withBucket).toHaveLength(storeRoutes.length);
    const routeNamed = (operationId: string): Route => routes.find((route) => route.operationId === operationId) as Route;
    const s3Policies = values(template.findResources('AWS::IAM::Policy')).filter(
      (p) =>
        JSON.stringify(p.Properties.PolicyDocument).includes('"s3:') &&
        !JSON.stringify(p.Properties.Roles).includes('BucketNotificationsHandler'),
    );
    // One per access class with originals (read, read with the link secret, read running models:
    // smart search's two routes, put, put with the link secret and realtime events: the uploads a
    // shared link may send, delete, archive, session, session with media jobs; delete again for the
    // routes that also post realtime events: deletions), the one of the features routes, which only
    // read models/ (`checksModels`), the media, transcode and nightly functions' own roles, and the
    // ingress's (the originals' upload prefix: infra/cdk/ingress.ts). (MediaConvert's role holds its own inline.)
    expect(new Set(routes.filter((route) => route.store).map(accessClass)).size).toBe(10);
    expect(s3Policies).toHaveLength(15);
    // The features routes: models/ only, read (HEAD) and listed, no originals.
    for (const route of routes.filter((each) => each.checksModels)) {
      const statements = (policyOf(template, route)?.Properties.PolicyDocument.Statement ?? []) as {
        Action: string | string[];
        Resource: unknown;
      }[];
      const s3 = statements.filter((st) => JSON.stringify(st.Action).includes('"s3:'));
      expect(s3.map((st) => [st.Action].flat().join()).sort(), route.path).toEqual(['s3:GetObject', 's3:ListBucket']);
      expect(JSON.stringify(s3.find((st) => st.Action === 's3:GetObject')?.Resource), route.path).toMatch(/"\/models\/\*"/);
    }
    expect(
      routes
        .filter((each) => each.checksModels)
        .map((each) => each.path)
        .sort(),
    ).toEqual(['/api/server-info/features', '/api/server/features']);
    // Upload sessions: multipart uploads (listed, completed, aborted), the object read to check it, removed if it is not what was declared.
    const sessionPolicy = JSON.stringify(policyOf(template, routeNamed('completeUploadSession'))?.Properties.PolicyDocument);
    for (const action of [
      's3:PutObject',
      's3:GetObject',
      's3:ListMultipartUploadParts',
      's3:AbortMultipartUpload',
      's3:DeleteObjectVersion',
    ])
      expect(sessionPolicy).toContain(action);
    // The archive function reads originals and writes zips (multipart, aborted on failure), and deletes nothing.
    const archivePolicy = JSON.stringify(policyOf(template, routeNamed('downloadArchive'))?.Properties.PolicyDocument);
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload']) expect(archivePolicy).toContain(action);
    expect(archivePolicy).not.toContain('s3:DeleteObject');
    const uploadPolicy = JSON.stringify(policyOf(template, routeNamed('uploadFile'))?.Properties.PolicyDocument);
    for (const action of ['s3:PutObject', 's3:DeleteObject', 's3:DeleteObjectVersion']) expect(uploadPolicy).toContain(action);
    // Exactly what each needs: the upload never reads, the delete function neither reads nor writes.
    expect(uploadPolicy).not.toContain('s3:GetObject');
    const deletePolicy = JSON.stringify(policyOf(template, routeNamed('deleteAssets'))?.Properties.PolicyDocument);
    expect(deletePolicy).toContain('s3:DeleteObjectVersion');
    for (const action of ['s3:GetObject', 's3:PutObject']) expect(deletePolicy).not.toContain(action);
    // Serving previews only reads.
    const servePolicy = JSON.stringify(policyOf(template, routeNamed('getAssetThumbnail'))?.Properties.PolicyDocument);
    expect(servePolicy).toContain('s3:GetObject');
    for (const action of ['s3:PutObject', 's3:DeleteObject']) expect(servePolicy).not.toContain(action);
  });

  it('runs each function with the one role of its access class, which grants exactly that class', () => {
    const functions = values(template.findResources('AWS::Lambda::Function'));
    for (const route of routes) {
      const fn = functions.find((f) => String(f.Properties.Description).includes(`${route.operationId} (`));
      expect(JSON.stringify(fn?.Properties.Role)).toMatch(new RegExp(`FunctionRoles${accessClass(route)}[0-9A-F]{8}`));
      expect(policyOf(template, route)).toBeDefined();
    }
    const classes = new Set(routes.map(accessClass));
    const roleIds = Object.keys(template.findResources('AWS::IAM::Role'));
    expect(roleIds.filter((id) => id.startsWith('FunctionRoles'))).toHaveLength(classes.size);
    // Logs go only to the functions' own log groups, which carry the stack's prefix.
    const logGroups = values(template.findResources('AWS::Logs::LogGroup')).map((g) => String(g.Properties.LogGroupName));
    expect(logGroups.filter((name) => name.startsWith('/immich/Test/'))).toHaveLength(routes.length + 3 + 4 + 1);
    // CDK's deploy-time handlers write their own groups (their managed role: acknowledged in code).
    const deployTime = /BucketNotificationsHandler|AWS679f53fac002430cb0da5b7982bd2287/;
    const logStatements = values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => !deployTime.test(JSON.stringify(p.Properties.Roles)))
      .map((p) =>
        JSON.stringify(p.Properties.PolicyDocument.Statement.find((st: { Action: string[] }) => st.Action.includes('logs:PutLogEvents'))),
      );
    // The ingress's role writes its own group only (infra/cdk/ingress.ts).
    for (const statement of logStatements) expect(statement).toMatch(/:log-group:\/immich\/Test\/(\*|ingress:\*)"/);
  });

  it('gives the shared-link secret only to routes that derive keys or tokens: its ARN in the environment, read at run time', () => {
    const functions = values(template.findResources('AWS::Lambda::Function'));
    for (const fn of functions) expect(fn.Properties.Environment?.Variables?.SHARED_LINK_SECRET).toBeUndefined();
    const withSecret = functions.filter((f) => f.Properties.Environment?.Variables?.SHARED_LINK_SECRET_ARN !== undefined);
    const secretRoutes = routes.filter((route) => route.secrets);
    expect(withSecret.map((f) => String(f.Properties.Description).split(' ')[2]).sort()).toEqual(
      secretRoutes.map((r) => (r.generation ? `${r.generation}:${r.operationId}` : r.operationId)).sort(),
    );
    expect(secretRoutes.map((r) => r.operationId)).toContain('getMySharedLink');
    for (const route of routes) {
      const statements = JSON.stringify(policyOf(template, route)?.Properties.PolicyDocument);
      expect(statements.includes('secretsmanager:GetSecretValue')).toBe(Boolean(route.secrets));
    }
    template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });

  describe('the transcode function (infra/cdk/transcode-function.ts)', () => {
    const transcodeFunction = (from: Template = template): [string, Resource] =>
      (Object.entries(from.findResources('AWS::Lambda::Function')).find(([, fn]) =>
        String(fn.Properties.Description).startsWith('Immich transcode'),
      ) as [string, Resource] | undefined) ?? ['', { Properties: {} }];
    const policyStatements = (from: Template, roleId: string) =>
      values(from.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(roleId))
        .flatMap(
          (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Condition?: unknown }[],
        );
    const mediaConvertRoleId = (): string =>
      Object.entries(template.findResources('AWS::IAM::Role')).find(([, role]) =>
        JSON.stringify(role.Properties.AssumeRolePolicyDocument).includes('mediaconvert.amazonaws.com'),
      )?.[0] ?? '';

    it('is one arm64 function of 10,240 MB, 15 minutes and 10 GiB of /tmp, retried twice then dead-lettered, with its settings in its environment', () => {
      const [id, fn] = transcodeFunction();
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 10_240,
        Timeout: 900,
        EphemeralStorage: { Size: 10_240 },
        LoggingConfig: { LogGroup: expect.anything() },
      });
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
      const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(variables).toMatchObject({ TRANSCODE_LAMBDA_MAX_SECONDS: '600', STACK_NAME: 'Test' });
      expect(variables.MEDIACONVERT_ROLE_ARN).toEqual({ 'Fn::GetAtt': [mediaConvertRoleId(), 'Arn'] });
      expect(Object.keys(variables).sort()).toEqual([
        'MEDIACONVERT_ROLE_ARN',
        'ORIGINALS_BUCKET',
        'STACK_NAME',
        'TABLE_NAME',
        'TRANSCODE_LAMBDA_MAX_SECONDS',
      ]);
      const [config] = values(template.findResources('AWS::Lambda::EventInvokeConfig')).filter((each) =>
        JSON.stringify(each.Properties.FunctionName).includes(id),
      );
      expect(config?.Properties).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
      expect(config?.Properties.DestinationConfig?.OnFailure?.Destination).toBeDefined();
      // Set by context: the crossover to MediaConvert, and a cap on how many encode at once.
      const [, tunedFn] = transcodeFunction(tuned());
      expect(tunedFn.Properties.Environment.Variables.TRANSCODE_LAMBDA_MAX_SECONDS).toBe('300');
      expect(tunedFn.Properties.ReservedConcurrentExecutions).toBe(2);
    });

    it('grants its role only what it does: originals read, encoded versions written and removed, asset items updated, CreateJob on the default queue, and its MediaConvert role passed to MediaConvert alone', () => {
      const [, fn] = transcodeFunction();
      const statements = policyStatements(template, String(fn.Properties.Role['Fn::GetAtt'][0])).filter(
        (statement) => ![statement.Action].flat().some((action) => action.startsWith('logs:')),
      );
      const grants = statements.map((statement) => ({
        actions: [statement.Action].flat().sort(),
        resource: JSON.stringify(statement.Resource),
      }));
      expect(grants.map((grant) => grant.actions)).toEqual([
        ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
        ['s3:GetObject'],
        ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'],
        ['mediaconvert:CreateJob'],
        ['iam:PassRole'],
        // Its failed events sent to its own dead-letter queue (Lambda's on-failure destination).
        ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
      ]);
      expect(grants[5]?.resource).toMatch(/TranscodeDeadLetters/);
      expect(grants[1]?.resource).toMatch(/\/upload\/\*"/);
      expect(grants[2]?.resource).toMatch(/\/thumbs\/\*"/);
      expect(grants[3]?.resource).toMatch(/:mediaconvert:.*:queues\/Default"/);
      expect(statements[4]?.Resource).toEqual({ 'Fn::GetAtt': [mediaConvertRoleId(), 'Arn'] });
      expect(statements[4]?.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'mediaconvert.amazonaws.com' } });
    });

    it('gives MediaConvert a role only it can assume, for this account’s jobs: the originals read, the encoded versions written', () => {
      const role = template.findResources('AWS::IAM::Role')[mediaConvertRoleId()] as Resource;
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'mediaconvert.amazonaws.com' },
          Condition: {
            StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnLike: { 'aws:SourceArn': expect.objectContaining({ 'Fn::Join': expect.anything() }) },
          },
        },
      ]);
      const statements = (role.Properties.Policies as { PolicyDocument: { Statement: { Action: string; Resource: unknown }[] } }[]).flatMap(
        (policy) => policy.PolicyDocument.Statement,
      );
      expect(
        statements.map((statement) => [statement.Action, JSON.stringify(statement.Resource).match(/\/(upload|thumbs)\/\*"/)?.[1]]),
      ).toEqual([
        ['s3:GetObject', 'upload'],
        ['s3:PutObject', 'thumbs'],
      ]);
      // Nothing else holds a policy for it.
      expect(policyStatements(template, mediaConvertRoleId())).toEqual([]);
    });

    it('hears the end (finished or failed) of this stack’s MediaConvert jobs only, from EventBridge, retried and dead-lettered', () => {
      const [id] = transcodeFunction();
      const [rule, ...others] = values(template.findResources('AWS::Events::Rule')).filter((each) => each.Properties.EventPattern);
      expect(others).toEqual([]);
      expect(rule?.Properties.EventPattern).toEqual({
        source: ['aws.mediaconvert'],
        'detail-type': ['MediaConvert Job State Change'],
        detail: { status: ['COMPLETE', 'ERROR'], userMetadata: { stack: ['Test'] } },
      });
      const [target] = rule?.Properties.Targets ?? [];
      expect(target.Arn).toEqual({ 'Fn::GetAtt': [id, 'Arn'] });
      expect(target).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 } });
      expect(target.DeadLetterConfig?.Arn).toBeDefined();
    });

    it('is invoked by the media function and the routes that queue video conversion, and by nothing else', () => {
      const [id] = transcodeFunction();
      const arn = { 'Fn::GetAtt': [id, 'Arn'] };
      const functions = values(template.findResources('AWS::Lambda::Function'));
      const media = functions.find((fn) => String(fn.Properties.Description).startsWith('Immich media'));
      expect(media?.Properties.Environment.Variables.TRANSCODE_FUNCTION).toEqual(arn);
      // The API functions reach it through their nested stack's parameter: those of the rows with `transcodeJobs`.
      const queuing = functions.filter(
        (fn) => String(fn.Properties.Description).startsWith('Immich API') && fn.Properties.Environment?.Variables?.TRANSCODE_FUNCTION,
      );
      const rows = routes.filter((route) => route.transcodeJobs);
      expect(rows.map((route) => route.operationId).sort()).toEqual(['runAssetJobs', 'runAssetJobs', 'sendJobCommand']);
      expect(queuing).toHaveLength(rows.length);
      // Which roles may invoke it: the media function's, and the job routes' access class.
      const invokers = values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]).some(
          (statement) => statement.Action === 'lambda:InvokeFunction' && JSON.stringify(statement.Resource).includes(id),
        ),
      );
      const roles = invokers.flatMap((policy) =>
        (policy.Properties.Roles as { Ref: string }[]).map((ref) => ref.Ref.replace(/[0-9A-F]{8}$/, '')),
      );
      expect(roles.sort()).toEqual(['FunctionRolesWriteDataMediaJobsTranscodeJobs', 'MediaRole']);
      for (const route of rows) expect(accessClass(route)).toBe('WriteDataMediaJobsTranscodeJobs');
    });

    it('is left out altogether with -c transcoding=off: no function, MediaConvert role, rule or queue, and no one is told of it', () => {
      const off = untranscoded();
      expect(transcodeFunction(off)[0]).toBe('');
      const resources = JSON.stringify(off.toJSON().Resources);
      for (const name of ['mediaconvert', 'TRANSCODE_FUNCTION', 'MEDIACONVERT_ROLE_ARN', 'TranscodeDeadLetters'])
        expect(resources).not.toContain(name);
    });
  });

  it('makes no OAuth provider unless asked (-c oauth=cognito: test/infra/cognito.test.ts), and gives no function OAUTH_SECRET_ARN', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    const functions = values(template.findResources('AWS::Lambda::Function'));
    for (const fn of functions) expect(fn.Properties.Environment?.Variables?.OAUTH_SECRET_ARN).toBeUndefined();
  });

  describe('Immich’s realtime socket (infra/cdk/realtime.ts)', () => {
    const functionOf = (description: string): [string, Resource] =>
      (Object.entries(template.findResources('AWS::Lambda::Function')).find(([, fn]) =>
        String(fn.Properties.Description).startsWith(`Immich realtime: ${description}`),
      ) as [string, Resource] | undefined) ?? ['', { Properties: {} }];
    const statementsOf = (fn: { Properties: Record<string, any> }) => {
      const roleId = String(fn.Properties.Role['Fn::GetAtt'][0]);
      return values(template.findResources('AWS::IAM::Policy'))
        .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(roleId))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => ![statement.Action].flat().some((action) => action.startsWith('logs:')));
    };
    const actionsOf = (fn: { Properties: Record<string, any> }) =>
      statementsOf(fn)
        .flatMap((statement) => [statement.Action].flat())
        .sort();

    it('is a WebSocket API: $connect and $disconnect to their functions, $default a MOCK that answers nothing', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
      const [apiId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
      const routesOf = values(template.findResources('AWS::ApiGatewayV2::Route')).filter((route) => route.Properties.ApiId?.Ref === apiId);
      expect(routesOf.map((route) => route.Properties.RouteKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
      const integrationOf = (key: string) => {
        const target = String(routesOf.find((route) => route.Properties.RouteKey === key)?.Properties.Target['Fn::Join'][1][1].Ref);
        return template.toJSON().Resources[target].Properties;
      };
      expect(integrationOf('$connect')).toMatchObject({ IntegrationType: 'AWS_PROXY' });
      expect(JSON.stringify(integrationOf('$connect').IntegrationUri)).toContain(functionOf('$connect')[0]);
      expect(JSON.stringify(integrationOf('$disconnect').IntegrationUri)).toContain(functionOf('$disconnect')[0]);
      expect(integrationOf('$default')).toMatchObject({ IntegrationType: 'MOCK', RequestTemplates: { $default: '{"statusCode": 200}' } });
      // No route answers the client: no route response anywhere.
      template.resourceCountIs('AWS::ApiGatewayV2::RouteResponse', 0);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        ApiId: { Ref: apiId },
        StageName: 'live',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      });
    });

    it('pings every connection every five minutes from EventBridge (nothing retried: the next tick pings again)', () => {
      const [rule, ...others] = values(template.findResources('AWS::Events::Rule')).filter((each) =>
        String(each.Properties.Description).startsWith('Immich realtime heartbeat'),
      );
      expect(others).toEqual([]);
      expect(rule?.Properties.ScheduleExpression).toBe('rate(5 minutes)');
      expect(JSON.stringify(rule?.Properties.Targets)).toContain(functionOf('the heartbeat')[0]);
      expect(rule?.Properties.Targets[0]).toMatchObject({ RetryPolicy: { MaximumRetryAttempts: 0 } });
    });

    it('grants each of its functions only what it does', () => {
      const [greeterId, greeter] = functionOf('the greeter');
      const [, connect] = functionOf('$connect');
      const [, disconnect] = functionOf('$disconnect');
      const [, ping] = functionOf('the heartbeat');
      // Its session's use (the routes' credentials check) and its connection: the items of each kind only.
      expect(actionsOf(connect)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'lambda:InvokeFunction']);
      const leadingKeys = (fn: { Properties: Record<string, any> }, action: string) =>
        (statementsOf(fn).find((each) => each.Action === action) as { Condition?: Record<string, Record<string, unknown>> } | undefined)
          ?.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
      expect(leadingKeys(connect, 'dynamodb:PutItem')).toEqual(['CONNECTION#*']);
      expect(leadingKeys(connect, 'dynamodb:UpdateItem')).toEqual(['SESSION#*']);
      expect(leadingKeys(disconnect, 'dynamodb:DeleteItem')).toEqual(['CONNECTION#*']);
      expect(leadingKeys(ping, 'dynamodb:DeleteItem')).toEqual(['CONNECTION#*']);
      expect(JSON.stringify(statementsOf(connect).find((each) => each.Action === 'lambda:InvokeFunction')?.Resource)).toContain(greeterId);
      expect(actionsOf(disconnect)).toEqual(['dynamodb:DeleteItem']);
      expect(actionsOf(greeter)).toEqual(['execute-api:ManageConnections']);
      expect(actionsOf(ping)).toEqual(['dynamodb:DeleteItem', 'dynamodb:Query', 'execute-api:ManageConnections']);
      const connections = (fn: { Properties: Record<string, any> }) =>
        JSON.stringify(statementsOf(fn).find((each) => each.Action === 'execute-api:ManageConnections')?.Resource);
      // The greeter posts (its first post is also its test of the connection being open) and closes a refused one.
      for (const method of ['POST', 'DELETE']) expect(connections(greeter)).toContain(`/live/${method}/@connections/*`);
      expect(connections(greeter)).not.toContain('/GET/');
      expect(greeter.Properties.MemorySize).toBe(256);
      expect(connections(ping)).toContain('/live/POST/@connections/*');
      expect(connections(ping)).not.toMatch(/GET|DELETE/);
      expect(connect.Properties.Environment.Variables).toMatchObject({ GREETER_FUNCTION: expect.anything(), WEB_GENERATION: 'v1' });
      expect(greeter.Properties.Environment.Variables.REALTIME_ENDPOINT).toBeDefined();
    });

    it('lets the media function post its events (previews, edits, people’s thumbnails) to the connections', () => {
      const media = values(template.findResources('AWS::Lambda::Function')).find((fn) =>
        String(fn.Properties.Description).startsWith('Immich media'),
      );
      expect(media?.Properties.Environment.Variables.REALTIME_ENDPOINT).toBeDefined();
      const posts = JSON.stringify(
        statementsOf(media as Resource).find((each) => each.Action === 'execute-api:ManageConnections')?.Resource,
      );
      expect(posts).toContain('/live/POST/@connections/*');
      expect(posts).not.toMatch(/GET|DELETE/);
    });

    it('tells the functions of the paths both generations share which web app is deployed (a browser is its client)', () => {
      const functions = values(template.findResources('AWS::Lambda::Function'));
      for (const route of routes.filter((each) => each.generation === undefined)) {
        const fn = functions.find((f) => String(f.Properties.Description).includes(`API ${route.operationId} (`));
        // No web build in this stack: the v1.100 one is assumed, as the realtime socket assumes it.
        expect(fn?.Properties.Environment?.Variables?.WEB_GENERATION, route.operationId).toBe(route.v3 ? 'v1' : undefined);
      }
    });

    it('lets a route post to the connections only when its row says it tells apps of a change', () => {
      const functions = values(template.findResources('AWS::Lambda::Function'));
      for (const route of routes) {
        const fn = functions.find((f) => String(f.Properties.Description).includes(`${route.operationId} (`));
        expect(fn?.Properties.Environment?.Variables?.REALTIME_ENDPOINT !== undefined, route.operationId).toBe(Boolean(route.realtime));
        const statements = JSON.stringify(policyOf(template, route)?.Properties.PolicyDocument);
        expect(statements.includes('execute-api:ManageConnections'), route.operationId).toBe(Boolean(route.realtime));
        if (route.realtime) expect(statements).not.toMatch(/\/(GET|DELETE)\/@connections/);
      }
    });
  });

  describe('the ingress (large uploads: docs/large-uploads.md)', () => {
    type Json = Record<string, any>;
    const only = (type: string): Json => {
      const found = values(template.findResources(type));
      expect(found, type).toHaveLength(1);
      return (found[0] as Json).Properties;
    };
    /** The user data as text, each CloudFormation token written as its JSON between « ». */
    const userData = (): string => {
      const parts = only('AWS::EC2::Instance').UserData['Fn::Base64']['Fn::Join'][1] as unknown[];
      return parts.map((part) => (typeof part === 'string' ? part : `«${JSON.stringify(part)}»`)).join('');
    };
    const environment = (): Map<string, string> => {
      const text = userData();
      const begin = text.indexOf('# immich-ingress-env-begin\n');
      const end = text.indexOf('# immich-ingress-env-end\n');
      expect(begin).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(begin);
      const lines = text.slice(begin, end).split('\n').slice(1).filter(Boolean);
      return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    };
    const uploadFunction = (): Json =>
      values(template.findResources('AWS::Lambda::Function')).find((f) =>
        String(f.Properties.Description).includes('(POST /api/asset/upload)'),
      ) as Json;

    it('is one arm64 t4g.nano on Amazon Linux 2023: IMDSv2 only, an encrypted gp3 root, standard credits, Spot (persistent, stopped on interruption)', () => {
      const instance = only('AWS::EC2::Instance');
      expect(instance.InstanceType).toBe('t4g.nano');
      const parameter = (template.toJSON().Parameters as Json)[instance.ImageId.Ref];
      expect(parameter.Default).toMatch(/^\/aws\/service\/ami-amazon-linux-latest\/al2023-ami-kernel-.*-arm64$/);
      expect(instance.MetadataOptions).toEqual({ HttpTokens: 'required', HttpPutResponseHopLimit: 1 });
      expect(instance.BlockDeviceMappings).toEqual([
        { DeviceName: '/dev/xvda', Ebs: { DeleteOnTermination: true, Encrypted: true, VolumeSize: 8, VolumeType: 'gp3' } },
      ]);
      expect(instance.CreditSpecification).toEqual({ CPUCredits: 'standard' });
      expect(instance.Tags).toContainEqual({ Key: 'immich:role', Value: 'ingress' });
      const template_ = only('AWS::EC2::LaunchTemplate');
      expect(instance.LaunchTemplate.LaunchTemplateId).toEqual({ Ref: Object.keys(template.findResources('AWS::EC2::LaunchTemplate'))[0] });
      expect(template_.LaunchTemplateData.InstanceMarketOptions).toEqual({
        MarketType: 'spot',
        SpotOptions: { SpotInstanceType: 'persistent', InstanceInterruptionBehavior: 'stop', ValidUntil: '2099-12-31T00:00:00Z' },
      });
      // On demand by context: no market options at all.
      const onDemand = tuned();
      onDemand.resourceCountIs('AWS::EC2::Instance', 1);
      onDemand.resourceCountIs('AWS::EC2::LaunchTemplate', 0);
      expect(JSON.stringify(onDemand.toJSON())).not.toContain('InstanceMarketOptions');
      expect(() => largeUploadsMode(new App({ context: { largeUploads: 'sometimes' } }))).toThrow(/largeUploads=sometimes/);
    });

    it('cancels the instance’s persistent Spot request before CloudFormation terminates the instance (else EC2 would launch another outside the stack)', () => {
      const [request] = values(template.findResources('Custom::IngressSpotRequest')) as Json[];
      const instance = Object.keys(template.findResources('AWS::EC2::Instance'))[0];
      // Created and updated: the instance's request found (its id the resource's physical id).
      const update = JSON.stringify(request?.Properties.Update);
      expect(update).toContain('describeInstances');
      expect(update).toContain(`{"Ref":"${instance}"}`);
      expect(update).toContain('Reservations.0.Instances.0.SpotInstanceRequestId');
      // Deleted (before the instance, which it names): that request cancelled.
      const remove = JSON.parse(String(request?.Properties.Delete)) as Json;
      expect(remove).toMatchObject({ service: 'EC2', action: 'cancelSpotInstanceRequests' });
      expect(remove.parameters.SpotInstanceRequestIds).toEqual(['PHYSICAL:RESOURCEID:']);
      const policy = values(template.findResources('AWS::IAM::Policy')).find((p) =>
        JSON.stringify(p.Properties.PolicyDocument).includes('ec2:CancelSpotInstanceRequests'),
      ) as Json;
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain(':spot-instances-request/*');
      // On demand, no request to cancel.
      tuned().resourceCountIs('Custom::IngressSpotRequest', 0);
    });

    it('sits in one private dual-stack subnet: no NAT, no public IPv4, IPv6 out through an egress-only gateway, an internet gateway attached but unrouted', () => {
      template.resourceCountIs('AWS::EC2::NatGateway', 0);
      template.resourceCountIs('AWS::EC2::EIP', 0);
      const subnet = only('AWS::EC2::Subnet');
      expect(subnet.CidrBlock).toMatch(/\/28$/);
      expect(subnet.MapPublicIpOnLaunch).toBe(false);
      expect(subnet.AssignIpv6AddressOnCreation).toBe(true);
      expect(JSON.stringify(subnet.Ipv6CidrBlock)).toContain('"64"');
      expect(only('AWS::EC2::Instance').NetworkInterfaces).toEqual([expect.objectContaining({ AssociatePublicIpAddress: false })]);
      // The Region's first zone, unless the deployer names one.
      expect(subnet.AvailabilityZone).toEqual({ 'Fn::Select': [0, { 'Fn::GetAZs': '' }] });
      expect(values(tuned().findResources('AWS::EC2::Subnet'))[0]?.Properties.AvailabilityZone).toBe('eu-west-1b');
      only('AWS::EC2::VPCGatewayAttachment');
      only('AWS::EC2::InternetGateway');
      const routes = values(template.findResources('AWS::EC2::Route')).map((route) => route.Properties);
      expect(routes).toEqual([
        expect.objectContaining({
          DestinationIpv6CidrBlock: '::/0',
          EgressOnlyInternetGatewayId: { Ref: Object.keys(template.findResources('AWS::EC2::EgressOnlyInternetGateway'))[0] },
        }),
      ]);
    });

    it('reaches S3 and DynamoDB through gateway endpoints on its route table', () => {
      const endpoints = values(template.findResources('AWS::EC2::VPCEndpoint')).map((endpoint) => endpoint.Properties);
      expect(endpoints.map((endpoint) => JSON.stringify(endpoint.ServiceName).match(/\.(s3|dynamodb)"/)?.[1]).sort()).toEqual([
        'dynamodb',
        's3',
      ]);
      const routeTable = Object.keys(template.findResources('AWS::EC2::RouteTable'))[0];
      for (const endpoint of endpoints) {
        expect(endpoint.VpcEndpointType).toBe('Gateway');
        expect(endpoint.RouteTableIds).toEqual([{ Ref: routeTable }]);
      }
    });

    it('lets in only its port from inside the VPC (CloudFront’s VPC origin), and out only HTTPS', () => {
      const group = only('AWS::EC2::SecurityGroup');
      expect(group.SecurityGroupIngress).toEqual([
        expect.objectContaining({ IpProtocol: 'tcp', FromPort: 8080, ToPort: 8080, CidrIp: only('AWS::EC2::VPC').CidrBlock }),
      ]);
      expect(group.SecurityGroupEgress.map((rule: Json) => [rule.CidrIp ?? rule.CidrIpv6, rule.FromPort, rule.ToPort])).toEqual([
        ['0.0.0.0/0', 443, 443],
        ['::/0', 443, 443],
      ]);
    });

    it('runs with a role of the upload route’s table grants, the originals’ upload prefix only, the media function, the link secret, its logs and its bundle', () => {
      const profile = only('AWS::IAM::InstanceProfile');
      const roleId = profile.Roles[0].Ref as string;
      expect(template.toJSON().Resources[roleId].Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
        Service: 'ec2.amazonaws.com',
      });
      const policy = values(template.findResources('AWS::IAM::Policy')).find((p) =>
        (p.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId),
      ) as Json;
      const statements = policy.Properties.PolicyDocument.Statement as Json[];
      for (const statement of statements) expect([statement.Resource].flat()).not.toContain('*');
      // The table: exactly the upload route's own statement (infra/cdk/function-roles.ts).
      const upload = routes.find((route) => route.operationId === 'uploadFile' && !route.generation) as Route;
      const routeStatements = policyOf(template, upload)?.Properties.PolicyDocument.Statement as Json[];
      const tableOf = (list: Json[]) => list.find((statement) => JSON.stringify(statement.Action).includes('dynamodb:'));
      expect(tableOf(statements)).toEqual(tableOf(routeStatements));
      const s3 = statements.filter((statement) => JSON.stringify(statement.Action).includes('s3:'));
      const [originals, bundle] = s3;
      expect(s3).toHaveLength(2);
      expect(JSON.stringify(originals?.Resource)).toMatch(/"\/upload\/\*"\]\]\}$/);
      expect([originals?.Action].flat().sort()).toEqual(
        [
          's3:AbortMultipartUpload',
          's3:DeleteObject',
          's3:DeleteObjectTagging',
          's3:DeleteObjectVersion',
          's3:DeleteObjectVersionTagging',
          's3:GetObject',
          's3:GetObjectVersion',
          's3:PutObject',
          's3:PutObjectTagging',
          's3:PutObjectVersionTagging',
        ].sort(),
      );
      expect(bundle?.Action).toBe('s3:GetObject');
      expect(JSON.stringify(bundle?.Resource)).toMatch(/cdk-[a-z0-9]+-assets-.*\/[0-9a-f]{64}\.zip"/);
      const media = Object.keys(
        template.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('previews') } }),
      );
      expect(statements).toContainEqual(
        expect.objectContaining({ Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [media[0], 'Arn'] } }),
      );
      expect(statements).toContainEqual(expect.objectContaining({ Action: 'secretsmanager:GetSecretValue' }));
      const logs = statements.find((statement) => JSON.stringify(statement.Action).includes('logs:')) as Json;
      expect(JSON.stringify(logs.Resource)).toContain(':log-group:/immich/Test/ingress:*');
      template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: '/immich/Test/ingress', RetentionInDays: 30 });
    });

    it('gets the upload function’s environment from its user data, with its port, the stack’s origin token, its log group and the dual-stack endpoints', () => {
      const env = environment();
      const functionEnv = uploadFunction().Properties.Environment.Variables as Json;
      // Every variable the upload function has; a plain value the same, a reference (the function's
      // is its nested stack's parameter) one of the main stack's.
      // But the realtime socket's management endpoint, which it cannot reach (IPv4 only: docs/large-uploads.md, "Limits").
      expect(functionEnv.REALTIME_ENDPOINT).toBeDefined();
      expect(env.has('REALTIME_ENDPOINT')).toBe(false);
      for (const [key, value] of Object.entries(functionEnv).filter(([key]) => key !== 'REALTIME_ENDPOINT')) {
        expect(env.has(key), key).toBe(true);
        if (typeof value !== 'string') expect(env.get(key), key).toMatch(/^«\{"(Ref|Fn::GetAtt)"/);
        else expect(env.get(key), key).toBe(value);
      }
      expect(env.get('TABLE_NAME')).toMatch(/^«\{"Ref":"Table[0-9A-F]{8}"\}»$/);
      expect(env.get('ORIGINALS_BUCKET')).toMatch(/^«\{"Ref":"Originals[0-9A-F]{8}"\}»$/);
      expect(env.get('INGRESS_PORT')).toBe('8080');
      expect(env.get('LOG_GROUP')).toBe('/immich/Test/ingress');
      expect(env.get('MEDIA_FUNCTION')).toContain('MediaFunction');
      expect(env.get('SHARED_LINK_SECRET_ARN')).toContain('SharedLinkSecret');
      // The same value CloudFront sends the streaming routes (infra/cdk/stack.ts).
      const stream = values(template.findResources('AWS::Lambda::Function')).find(
        (f) => f.Properties.Environment?.Variables?.ORIGIN_VERIFY,
      );
      expect(env.get('ORIGIN_VERIFY')).toBe(`«${JSON.stringify(stream?.Properties.Environment.Variables.ORIGIN_VERIFY)}»`);
      const region = '«{"Ref":"AWS::Region"}»';
      expect(env.get('AWS_REGION')).toBe(region);
      expect(env.get('AWS_ENDPOINT_URL_LAMBDA')).toBe(`https://lambda.${region}.api.aws`);
      expect(env.get('AWS_ENDPOINT_URL_CLOUDWATCH_LOGS')).toBe(`https://logs.${region}.api.aws`);
      expect(env.get('AWS_ENDPOINT_URL_SECRETS_MANAGER')).toBe(`https://secretsmanager.${region}.api.aws`);
    });

    it('names its bundle in its user data, installs Node 24 from AL2023, runs it under systemd as its own user, and patches itself', () => {
      const text = userData();
      expect(text).toMatch(/\n# immich-ingress-bundle s3:\/\/«[^»]+»\/[0-9a-f]{64}\.zip\n/);
      expect(text).toContain('retry dnf -y install nodejs24');
      expect(text).toMatch(/\nretry aws s3 cp --region «[^»]+» s3:\/\/«[^»]+»\/[0-9a-f]{64}\.zip \/tmp\/immich-ingress\.zip\n/);
      expect(text).toContain('ExecStart=/usr/bin/node-24 --max-old-space-size=256 /opt/immich-ingress/main.mjs');
      for (const line of ['User=immich-ingress', 'Restart=always', 'MemoryMax=400M', 'NoNewPrivileges=yes', 'ProtectSystem=strict'])
        expect(text).toContain(`\n${line}\n`);
      expect(text).toContain('dnf -y upgrade --releasever=latest --security && (dnf needs-restarting -r || systemctl reboot)');
      expect(text).toContain('systemctl enable --now immich-ingress.service immich-ingress-update.timer');
      // A script bash reads without error (its references written as plain words).
      expect(() => execFileSync('bash', ['-n'], { input: text.replace(/«[^»]*»/g, 'value'), stdio: 'pipe' })).not.toThrow();
      expect(text.startsWith('#!/bin/bash\nset -euo pipefail\n')).toBe(true);
    });

    it('expires an original the ingress stored but never recorded (tagged ingress=pending) after a day', () => {
      const bucket = values(template.findResources('AWS::S3::Bucket')).find((b) => b.Properties.VersioningConfiguration) as Json;
      expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual({
        Id: 'expire-pending-ingress-uploads',
        Status: 'Enabled',
        Prefix: 'upload/',
        TagFilters: [{ Key: 'ingress', Value: 'pending' }],
        ExpirationInDays: 1,
      });
    });

    it('alarms on the stack’s topic when the instance fails its status checks, reports no heartbeat (missing counts), or runs low on disk', () => {
      const alarms = values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties);
      const topic = Object.keys(template.findResources('AWS::SNS::Topic'))[0];
      const find = (metric: string) => alarms.find((alarm) => alarm.MetricName === metric) as Json;
      expect(find('StatusCheckFailed')).toMatchObject({
        Namespace: 'AWS/EC2',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect(find('StatusCheckFailed').Dimensions).toEqual([
        { Name: 'InstanceId', Value: { Ref: expect.stringMatching(/^IngressInstance/) } },
      ]);
      expect(find('IngressHeartbeat')).toMatchObject({
        Namespace: 'ImmichServerless',
        Period: 900,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      });
      expect(find('IngressDiskFreePercent')).toMatchObject({
        Namespace: 'ImmichServerless',
        Threshold: 15,
        ComparisonOperator: 'LessThanThreshold',
      });
      for (const metric of ['StatusCheckFailed', 'IngressHeartbeat', 'IngressDiskFreePercent'])
        expect(find(metric).AlarmActions, metric).toEqual([{ Ref: topic }]);
    });

    it('is left out altogether with -c largeUploads=off: no instance, VPC, VPC origin, role or rule', () => {
      const off = mailed();
      for (const type of [
        'AWS::EC2::Instance',
        'AWS::EC2::VPC',
        'AWS::EC2::Subnet',
        'AWS::EC2::VPCEndpoint',
        'AWS::CloudFront::VpcOrigin',
        'AWS::IAM::InstanceProfile',
      ])
        off.resourceCountIs(type, 0);
      const json = JSON.stringify(off.toJSON());
      expect(json).not.toContain('expire-pending-ingress-uploads');
      expect(json).not.toContain('IngressHeartbeat');
    });
  });

  it('outputs the API URL under /api', () => {
    const output = template.findOutputs('ApiUrl');
    expect(JSON.stringify(output)).toContain('/api');
  });
});

describe('least-privilege grants from the route table', () => {
  const rows: Route[] = [
    { operationId: 'readsOnly', method: 'GET', path: '/api/r', entry: 'functions/server-info/ping-server.ts', data: 'read' },
    { operationId: 'writes', method: 'POST', path: '/api/w', entry: 'functions/server-info/ping-server.ts', data: 'write', memory: 1024 },
    { operationId: 'touchesNothing', method: 'GET', path: '/api/n', entry: 'functions/server-info/ping-server.ts', data: 'none' },
  ];
  const template = synth(rows);
  const policies = values(template.findResources('AWS::IAM::Policy'));
  const actionsOf = (operationId: string): string[] => {
    const policy = policyOf(template, rows.find((row) => row.operationId === operationId) as Route);
    return (policy?.Properties.PolicyDocument.Statement ?? [])
      .flatMap((s: { Action: string | string[] }) => [s.Action].flat())
      .filter((action: string) => !action.startsWith('logs:') && !action.startsWith('xray:'));
  };

  it('gives a read route only read actions, and an update of session items’ use attributes (a session kept unlocked)', () => {
    const actions = actionsOf('readsOnly');
    expect(actions.sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    const statements = policyOf(template, rows[0] as Route)?.Properties.PolicyDocument.Statement as {
      Action: string | string[];
      Condition?: unknown;
      Resource: unknown;
    }[];
    const update = statements.find((statement) => statement.Action === 'dynamodb:UpdateItem');
    expect(update?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...sessionUseAttributes] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    });
    // The table itself, none of its indexes.
    expect(JSON.stringify(update?.Resource)).not.toContain('index');
  });

  it('gives a write route the item writes its transactions need, and never Scan, streams or table management', () => {
    expect(actionsOf('writes').sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    const every = JSON.stringify(policies);
    for (const action of ['dynamodb:Scan', 'dynamodb:GetRecords', 'dynamodb:DeleteTable', 'dynamodb:*'])
      expect(every).not.toContain(`"${action}"`);
  });

  it('gives a route without data no policy and no table name', () => {
    expect(actionsOf('touchesNothing')).toEqual([]);
    const fn = values(template.findResources('AWS::Lambda::Function')).find((f) =>
      String(f.Properties.Description).includes('touchesNothing'),
    );
    expect(fn?.Properties.Environment?.Variables?.TABLE_NAME).toBeUndefined();
  });

  it('sets memory from the row', () => {
    const fn = values(template.findResources('AWS::Lambda::Function')).find((f) => String(f.Properties.Description).includes('writes'));
    expect(fn?.Properties.MemorySize).toBe(1024);
  });
});

describe('room to grow', () => {
  it("fits Immich v1.100's 140 operations and 20 more: every stack stays well under CloudFormation's 500 resources", async () => {
    // The operations of @immich/sdk 1.100.0 by controller (the first segment of each path), plus
    // 20 more in the largest area: the stack a complete implementation would need.
    const { readFile } = await import('node:fs/promises');
    const client = await readFile(new URL(import.meta.resolve('@immich/sdk')).pathname.replace(/index\.js$/, 'fetch-client.js'), 'utf8');
    const paths = [...client.matchAll(/fetch(?:Json|Text|Blob)?\(\s*[`"](\/[^`"]*)[`"]/g)].map((match) =>
      (match[1] ?? '').replace(/\$\{QS\..*$/s, ''),
    );
    expect(paths).toHaveLength(140);
    const rows: Route[] = [...paths, ...Array.from({ length: 20 }, (_, index) => `/asset/extra-${index}`)].map((path, index) => ({
      operationId: `operation${index}`,
      method: 'POST',
      path: `/api${path.replace(/\$\{encodeURIComponent\((\w+)\)\}/g, '{$1}')}/${index}`,
      entry: 'functions/server-info/ping-server.ts',
      // The most resources a route can bring: table writes, originals and the secret.
      data: index % 2 ? 'write' : 'read',
      ...(index % 3 ? { store: 'put' as const } : {}),
      ...(index % 5 ? { secrets: true } : {}),
    }));
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new ImmichStack(app, 'Grown', { routes: [...rows, ...routes.filter((route) => route.path === '$default')] });
    const count = (each: Stack): number => Object.keys(Template.fromStack(each).toJSON().Resources).length;
    const nested = stack.node.children.filter((child) => child instanceof NestedStack);
    const sizes = Object.fromEntries([stack, ...nested].map((each) => [each.node.id, count(each)]));
    // The API's functions are all in the nested stacks (the main stack keeps the media function).
    const rootFunctions = values(Template.fromStack(stack).findResources('AWS::Lambda::Function'));
    expect(rootFunctions.filter((f) => String(f.Properties.Description).startsWith('Immich API'))).toEqual([]);
    expect(nested.reduce((sum, each) => sum + Object.keys(Template.fromStack(each).findResources('AWS::Lambda::Function')).length, 0)).toBe(
      161,
    );
    // Half the limit at most anywhere: the largest area (asset, 55 routes here) has room to double.
    for (const [id, size] of Object.entries(sizes)) expect(size, id).toBeLessThanOrEqual(300);
  });
});

describe('cdk-nag (AWS Solutions and Serverless rules)', () => {
  const nagged = (context: Record<string, string> = {}, webDir?: string, account?: string) => {
    const outdir = mkdtempSync(join(tmpdir(), 'nag-'));
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], ...context } });
    const stack = new ImmichStack(app, 'Nagged', {
      env: { region: 'eu-west-1', ...(account ? { account } : {}) },
      ...(webDir ? { webDir } : {}),
    });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
    return { app, stack, outdir };
  };

  it('finds nothing that is neither fixed nor acknowledged with a reason in code: a new stack, one with tracing, one on retained resources', () => {
    const contexts: Record<string, string>[] = [
      {},
      { tracing: 'true', largeUploads: 'ondemand' },
      {
        largeUploads: 'off',
        existingTableName: 'kept',
        existingBucketName: 'kept-originals',
        existingLinkSecretArn: 'arn:aws:secretsmanager:eu-west-1:1:secret:s-AbCdEf',
      },
    ];
    for (const [index, context] of contexts.entries()) {
      // The first with an account too, as `npm run deploy` synthesizes: still nothing looked up (offline).
      const { app, outdir } = nagged(context, undefined, index === 0 ? '123456789012' : undefined);
      try {
        expect(app.synth().manifest.missing ?? []).toEqual([]);
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    }
  });

  it('finds nothing either with a web build to deploy (CDK’s deploy-time copy of it)', () => {
    const webDir = mkdtempSync(join(tmpdir(), 'nag-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
    const { app, outdir } = nagged({}, webDir);
    try {
      expect(() => app.synth()).not.toThrow();
    } finally {
      rmSync(outdir, { recursive: true, force: true });
      rmSync(webDir, { recursive: true, force: true });
    }
  });

  it('acknowledges only what it says: every acknowledgment has a reason; with tracing, the Resource::* statements are X-Ray’s and DescribeInstances’', () => {
    const { stack, outdir } = nagged({ tracing: 'true' });
    try {
      const nested = stack.node.children.filter((child) => child instanceof NestedStack);
      const all = [stack, ...nested].map(
        (each) => Template.fromStack(each).toJSON() as { Resources: Record<string, { Type: string; Properties: any; Metadata?: any }> },
      );
      const statements = all.flatMap((t) =>
        Object.values(t.Resources)
          .filter((r) => r.Type === 'AWS::IAM::Policy')
          .flatMap((r) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]),
      );
      const everything = statements.filter((st) => [st.Resource].flat().includes('*'));
      // X-Ray's two, and the ingress's Spot request handler's ec2:DescribeInstances (infra/cdk/ingress.ts):
      // none of them takes a resource-level permission.
      expect(new Set(everything.flatMap((st) => [st.Action].flat()))).toEqual(
        new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'ec2:DescribeInstances']),
      );
      const acknowledgments = [stack, ...nested].flatMap((each) =>
        each.node
          .findAll()
          .flatMap((construct) => construct.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
          .flatMap((entry) =>
            Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ id: id.replace(/^Annotation::/, ''), reason })),
          ),
      );
      expect(acknowledgments.length).toBeGreaterThan(5);
      for (const { id, reason } of acknowledgments) expect(reason.length, id).toBeGreaterThan(40);
      expect(new Set(acknowledgments.map((a) => a.id.replace(/\[.*$/, '')))).toEqual(
        new Set([
          'AwsSolutions-IAM5',
          'AwsSolutions-APIG4',
          'Serverless-LambdaDLQ',
          'AwsSolutions-SMG4',
          'AwsSolutions-S1',
          'AwsSolutions-SQS3',
          'Serverless-SQSRedrivePolicy',
          'AwsSolutions-IAM4',
          'AwsSolutions-CFR1',
          'AwsSolutions-CFR2',
          'AwsSolutions-CFR3',
          'AwsSolutions-CFR4',
          // The realtime socket (infra/cdk/realtime.ts): its greeting and heartbeat are not worth a
          // retry or a queue, and its stage's access log would need API Gateway's account-wide role.
          'Serverless-LambdaAsyncFailureDestination',
          'Serverless-EventBusDLQ',
          'AwsSolutions-APIG1',
          'Serverless-APIGWAccessLogging',
          // The ingress (infra/cdk/ingress.ts): no flow logs, no detailed monitoring, one stateless instance.
          'AwsSolutions-VPC7',
          'AwsSolutions-EC28',
          'AwsSolutions-EC29',
          // CDK's handler of the ingress's Spot request (deploy time only).
          'Serverless-LambdaTracing',
        ]),
      );
      // Without tracing (the default) none of our statements has Resource '*' (CDK's deploy-time
      // handler for bucket notifications has its own), but the ingress's Spot request handler's
      // ec2:DescribeInstances, which takes no resource-level permission (infra/cdk/ingress.ts).
      const plain = defaultTemplate();
      const wildcard = values(plain.findResources('AWS::IAM::Policy')).flatMap((p) =>
        JSON.stringify(p.Properties.Roles).includes('BucketNotificationsHandler')
          ? []
          : (p.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]).filter((st) =>
              [st.Resource].flat().includes('*'),
            ),
      );
      expect(wildcard).toEqual([{ Action: 'ec2:DescribeInstances', Effect: 'Allow', Resource: '*' }]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
