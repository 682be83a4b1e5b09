/**
 * The CloudFront distribution that serves Immich's web app and the API on one origin
 * (infra/cdk/web-distribution.ts), read from the synthesized template: which path goes where, with
 * what caching, headers and forwarding; the bucket reachable only through CloudFront; the
 * viewer-request function run on the same paths as the local server's rule; the build deployed
 * only when there is one; the custom domain by context; the originals' CORS for the app's origin;
 * the share pages' function, bundled with the build's index.html.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction } from '#infra/cdk/api-function.ts';
import { ImmichStack } from '#infra/cdk/stack.ts';
import { bodyLimitBytes, deployedUploadLimitMb, webRoutes } from '#infra/routes.ts';
import {
  immutableCacheControl,
  isAppRoute,
  originIds,
  securityHeaders,
  uploadPaths,
  uploadRoutingFunctionCode,
  viewerHostFunctionCode,
} from '#infra/web-app.ts';
import { invoke } from '../support/invoke.ts';

type Json = Record<string, any>;

// CloudFront's managed policies, by their fixed ids.
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const cachingOptimized = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const allViewerExceptHost = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const synthStack = (context: Record<string, string> = {}, webDir?: string): ImmichStack => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  return new ImmichStack(app, 'Web', { env: { region: 'eu-west-1' }, ...(webDir ? { webDir } : {}) });
};
const synth = (context: Record<string, string> = {}, webDir?: string): Template => Template.fromStack(synthStack(context, webDir));

/** The share pages' routes and function, from whichever nested route stacks hold them (none without a build). */
const sharePageRoute = (stack: ImmichStack): { routes: number; environment?: Json } => {
  let routes = 0;
  let environment: Json | undefined;
  for (const nested of stack.node.children.filter((child): child is NestedStack => child instanceof NestedStack)) {
    const template = Template.fromStack(nested);
    for (const routeKey of ['GET /share/{key+}', 'GET /s/{slug+}'])
      routes += Object.keys(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } })).length;
    const fn = Object.values(
      template.findResources('AWS::Lambda::Function', { Properties: { Description: Match.stringLikeRegexp('renderSharePage') } }),
    )[0] as Json | undefined;
    environment ??= fn?.Properties.Environment.Variables;
  }
  return { routes, ...(environment ? { environment } : {}) };
};

describe('the web distribution', () => {
  let webDir: string;
  let template: Template;
  let config: Json;
  let resources: Record<string, Json>;
  beforeAll(() => {
    webDir = mkdtempSync(join(tmpdir(), 'web-build-'));
    mkdirSync(join(webDir, '_app', 'immutable'), { recursive: true });
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>stand-in</title>');
    writeFileSync(join(webDir, '_app', 'immutable', 'start.Ab12.js'), 'void 0;');
    template = synth({}, webDir);
    resources = template.toJSON().Resources as Record<string, Json>;
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution')) as Json[];
    config = distribution?.Properties.DistributionConfig;
  });
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));
  // The stack without a build and without the ingress (`-c largeUploads=off`), synthesized once for the tests that read it.
  let plainStack: ImmichStack | undefined;
  const plain = (): ImmichStack => (plainStack ??= synthStack({ largeUploads: 'off' }));
  const plainConfig = (): Json =>
    (Object.values(Template.fromStack(plain()).findResources('AWS::CloudFront::Distribution'))[0] as Json).Properties.DistributionConfig;

  const logicalIdOf = (ref: Json | string): string => (typeof ref === 'string' ? ref : (ref.Ref ?? ref['Fn::GetAtt']?.[0]));
  const originOf = (behaviour: Json): Json => config.Origins.find((origin: Json) => origin.Id === behaviour.TargetOriginId);
  const headersPolicyOf = (behaviour: Json): Json =>
    resources[logicalIdOf(behaviour.ResponseHeadersPolicyId)]?.Properties.ResponseHeadersPolicyConfig;
  const functionCodeOf = (behaviour: Json): string => {
    const [association] = behaviour.FunctionAssociations ?? [];
    return resources[logicalIdOf(association.FunctionARN)]?.Properties.FunctionCode;
  };
  const behaviour = (pattern: string): Json => config.CacheBehaviors.find((each: Json) => each.PathPattern === pattern);

  it('sends the sync stream to its function URL: uncached, gzip passed on, the stack’s token added, nothing compressed twice', () => {
    const stream = behaviour('/api/sync/stream');
    const origin = originOf(stream);
    expect(JSON.stringify(origin.DomainName)).toContain('FunctionUrl');
    expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: expect.anything() }]);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginReadTimeout: 60 });
    expect(stream.OriginRequestPolicyId).toBe(allViewerExceptHost);
    expect(stream.Compress).toBe(false);
    const policy = resources[logicalIdOf(stream.CachePolicyId)]?.Properties.CachePolicyConfig;
    expect(policy).toMatchObject({ DefaultTTL: 0, MinTTL: 0 });
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin.EnableAcceptEncodingGzip).toBe(true);
  });

  it('sends both generations’ map markers to their function URLs as the sync stream: a GET never cached, its query string passed on', () => {
    for (const path of ['/api/map/markers', '/api/asset/map-marker']) {
      const markers = behaviour(path);
      expect(JSON.stringify(originOf(markers).DomainName), path).toContain('FunctionUrl');
      expect(originOf(markers).OriginCustomHeaders).toEqual(originOf(behaviour('/api/sync/stream')).OriginCustomHeaders);
      // Every viewer header, cookie and query string reaches the function; nothing is kept (no TTL unless the answer asked).
      expect(markers.OriginRequestPolicyId, path).toBe(allViewerExceptHost);
      expect(markers.CachePolicyId, path).toEqual(behaviour('/api/sync/stream').CachePolicyId);
      expect(markers.AllowedMethods, path).toContain('GET');
      expect(markers.Compress, path).toBe(false);
    }
  });

  it('sends the API’s paths to the HTTP API uncached, with every method, header, cookie and query string but Host', () => {
    const patterns = config.CacheBehaviors.map((each: Json) => each.PathPattern);
    // The socket first: CloudFront takes the first pattern that matches.
    expect(patterns).toEqual([
      '/api/socket.io/*',
      '/api/asset/map-marker',
      '/api/map/markers',
      '/api/sync/stream',
      '/api/assets',
      '/api/asset/upload',
      '/api',
      '/api/*',
      '/.well-known/immich',
      '/custom.css',
      '/share/*',
      '/s/*',
      '/_app/immutable/*',
    ]);
    for (const pattern of ['/api', '/api/*', '/.well-known/immich', '/custom.css', '/share/*', '/s/*']) {
      const api = behaviour(pattern);
      expect(api.CachePolicyId, pattern).toBe(cachingDisabled);
      expect(api.OriginRequestPolicyId, pattern).toBe(allViewerExceptHost);
      expect(api.AllowedMethods, pattern).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
      expect(api.ViewerProtocolPolicy, pattern).toBe('redirect-to-https');
      const origin = originOf(api);
      expect(JSON.stringify(origin.DomainName), pattern).toContain('.execute-api.');
      expect(JSON.stringify(origin.DomainName), pattern).toContain(
        JSON.stringify({
          Ref: logicalIdOf(
            Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }))[0] ?? '',
          ),
        }),
      );
      expect(origin.CustomOriginConfig.OriginProtocolPolicy, pattern).toBe('https-only');
      // No cache-control of CloudFront's over the API's own (a file's ETag, a redirect's no-store).
      expect(headersPolicyOf(api).CustomHeadersConfig, pattern).toBeUndefined();
    }
  });

  it('passes the host a share page’s visitor reached on to the API (x-viewer-host), whatever the visitor sent as it', () => {
    for (const pattern of ['/share/*', '/s/*']) {
      const page = behaviour(pattern);
      expect(
        page.FunctionAssociations.map((each: Json) => each.EventType),
        pattern,
      ).toEqual(['viewer-request']);
      const code = functionCodeOf(page);
      expect(code, pattern).toBe(viewerHostFunctionCode);
      const run = (headers: Record<string, { value: string }>) =>
        runInNewContext(`${code}; handler({ request: { uri: '/s/trip', headers: ${JSON.stringify(headers)} } })`) as {
          headers: Record<string, { value: string }>;
        };
      expect(run({ host: { value: 'photos.example.com' }, 'x-viewer-host': { value: 'evil.example' } }).headers['x-viewer-host']).toEqual({
        value: 'photos.example.com',
      });
      expect(run({ 'x-viewer-host': { value: 'evil.example' } }).headers['x-viewer-host']).toBeUndefined();
    }
    // The API's own paths keep no function: their requests are the visitor's as they are.
    expect(behaviour('/api/*').FunctionAssociations ?? []).toEqual([]);
  });

  it('sends Immich’s socket to the WebSocket API’s stage: uncached, with the upgrade’s headers, its cookie and query but Host', () => {
    const socket = behaviour('/api/socket.io/*');
    const origin = originOf(socket);
    const [webSocketApi] = Object.keys(template.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'WEBSOCKET' } }));
    expect(JSON.stringify(origin.DomainName)).toContain(JSON.stringify({ Ref: webSocketApi }));
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(socket.CachePolicyId).toBe(cachingDisabled);
    // Every viewer header but Host: Sec-WebSocket-*, Cookie, User-Agent, the credential headers; and the query.
    expect(socket.OriginRequestPolicyId).toBe(allViewerExceptHost);
    expect(socket.AllowedMethods).toEqual(['GET', 'HEAD']);
    // API Gateway takes a WebSocket at its stage's root only: the viewer's path becomes the stage's.
    const code = functionCodeOf(socket);
    const request = runInNewContext(
      `${code}; handler({ request: { uri: '/api/socket.io/', querystring: { EIO: { value: '4' } } } })`,
    ) as Json;
    expect(request).toEqual({ uri: '/live', querystring: { EIO: { value: '4' } } });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { ApiId: { Ref: webSocketApi }, StageName: 'live' });
  });

  it('serves the app from a private bucket through origin access control: a year for fingerprinted files, revalidation for the rest', () => {
    const immutable = behaviour('/_app/immutable/*');
    const app = config.DefaultCacheBehavior;
    for (const each of [immutable, app]) {
      expect(each.CachePolicyId).toBe(cachingOptimized);
      expect(each.AllowedMethods).toEqual(['GET', 'HEAD']);
      expect(each.Compress).toBe(true);
      const origin = originOf(each);
      expect(origin.S3OriginConfig).toBeDefined();
      expect(origin.OriginAccessControlId).toBeDefined();
    }
    const cacheControl = (each: Json) =>
      headersPolicyOf(each).CustomHeadersConfig.Items.find((header: Json) => header.Header === 'cache-control');
    expect(cacheControl(immutable)).toEqual({ Header: 'cache-control', Value: immutableCacheControl, Override: true });
    expect(cacheControl(app)).toEqual({ Header: 'cache-control', Value: 'no-cache', Override: true });
    expect(config.DefaultRootObject).toBe('index.html');
    // The OAC signs every request; the bucket blocks public access and lets CloudFront alone read (and list: a 404, not a 403).
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    const policies = JSON.stringify(template.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toContain('cloudfront.amazonaws.com');
    expect(policies).toContain('s3:ListBucket');
    expect(policies).toContain('AWS:SourceArn');
  });

  it('answers app routes with index.html by the same rule as the local server', () => {
    const code = functionCodeOf(config.DefaultCacheBehavior);
    const paths = [
      '/',
      '/photos',
      '/photos/abc',
      '/albums/x',
      '/share/KeY',
      '/people/p/photos/a',
      '/api/x',
      '/_app/immutable/a.js',
      '/favicon.ico',
      '/manifest.json',
      '/.well-known/immich',
      '/robots.txt',
    ];
    for (const path of paths) {
      const request = runInNewContext(`${code}; handler({ request: { uri: ${JSON.stringify(path)} } })`) as { uri: string };
      expect(request.uri, path).toBe(isAppRoute(path) ? '/index.html' : path);
    }
    expect(config.DefaultCacheBehavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(resources[logicalIdOf(config.DefaultCacheBehavior.FunctionAssociations[0].FunctionARN)]?.Properties.FunctionConfig.Runtime).toBe(
      'cloudfront-js-2.0',
    );
  });

  it('sends the security headers the app is proved with, and HSTS, on every path', () => {
    for (const each of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      const security = headersPolicyOf(each).SecurityHeadersConfig;
      expect(security.ContentTypeOptions).toEqual({ Override: true });
      expect(security.FrameOptions).toEqual({ FrameOption: securityHeaders['x-frame-options'], Override: true });
      expect(security.ReferrerPolicy).toEqual({ ReferrerPolicy: securityHeaders['referrer-policy'], Override: true });
      expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: securityHeaders['content-security-policy'], Override: true });
      expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 63_072_000, Override: true });
    }
  });

  it('renders share pages with a function carrying the build’s index.html, only when there is a build', () => {
    const withBuild = sharePageRoute(synthStack({}, webDir));
    expect(withBuild.routes).toBe(2);
    expect(withBuild.environment).toMatchObject({ WEB_INDEX: 'index.html', TABLE_NAME: expect.anything() });
    expect(sharePageRoute(plain()).routes).toBe(0);
    expect(plainConfig().CacheBehaviors.map((each: Json) => each.PathPattern)).not.toContain('/share/*');
    expect(plainConfig().CacheBehaviors.map((each: Json) => each.PathPattern)).not.toContain('/s/*');
  });

  it('deploys the build when there is one (and invalidates the cache), and nothing without', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 1);
    template.hasResourceProperties('Custom::CDKBucketDeployment', { DistributionPaths: ['/*'], Prune: true });
    Template.fromStack(plain()).resourceCountIs('Custom::CDKBucketDeployment', 0);
  });

  it('lets the app’s origin read the originals’ presigned URLs (the viewer and downloads follow the API’s redirects)', () => {
    const originals = Object.values(template.findResources('AWS::S3::Bucket')).find(
      (bucket: Json) => bucket.Properties.VersioningConfiguration,
    ) as Json;
    const [rule] = originals.Properties.CorsConfiguration.CorsRules;
    expect(rule.AllowedMethods).toEqual(['GET', 'HEAD']);
    // With the ingress, CloudFront's domains: naming the distribution's own would be a cycle
    // (distribution → ingress instance → this bucket's name → its CORS rule → distribution).
    expect(rule.AllowedOrigins).toEqual(['https://*.cloudfront.net']);
    // Without it, the distribution's own domain.
    const plainOriginals = Object.values(Template.fromStack(plain()).findResources('AWS::S3::Bucket')).find(
      (bucket: Json) => bucket.Properties.VersioningConfiguration,
    ) as Json;
    const [plainRule] = plainOriginals.Properties.CorsConfiguration.CorsRules;
    expect(JSON.stringify(plainRule.AllowedOrigins)).toContain('DomainName');
    expect(plainRule.AllowedOrigins).toHaveLength(1);
  });

  it('sends a large upload POST to the ingress’s VPC origin and the rest of the upload paths to the API, by a viewer-request function', () => {
    const functionCode = uploadRoutingFunctionCode({
      limitBytes: bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb),
      large: 'ingress',
    });
    const api = config.Origins.find((origin: Json) => origin.Id === originIds.api);
    expect(JSON.stringify(api.DomainName)).toContain('.execute-api.');
    expect(behaviour('/api/*').TargetOriginId).toBe(originIds.api);
    for (const path of uploadPaths) {
      const upload = behaviour(path);
      // CloudFront makes origins of what behaviours name: the ingress is theirs; the function picks per request.
      expect(upload.TargetOriginId, path).toBe(originIds.ingress);
      expect(upload.CachePolicyId, path).toBe(cachingDisabled);
      expect(upload.OriginRequestPolicyId, path).toBe(allViewerExceptHost);
      expect(upload.AllowedMethods, path).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
      expect(
        upload.FunctionAssociations.map((each: Json) => each.EventType),
        path,
      ).toEqual(['viewer-request']);
      expect(functionCodeOf(upload), path).toBe(functionCode);
      const fn = resources[logicalIdOf(upload.FunctionAssociations[0].FunctionARN)];
      expect(fn?.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    }
    const ingress = config.Origins.find((origin: Json) => origin.Id === originIds.ingress);
    expect(ingress.OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: expect.anything() }]);
    expect(ingress.OriginCustomHeaders[0].HeaderValue).toEqual(originOf(behaviour('/api/sync/stream')).OriginCustomHeaders[0].HeaderValue);
    expect(ingress.VpcOriginConfig).toMatchObject({ OriginReadTimeout: 120, OriginKeepaliveTimeout: 60 });
    const vpcOrigin = resources[logicalIdOf(ingress.VpcOriginConfig.VpcOriginId)]?.Properties.VpcOriginEndpointConfig;
    expect(vpcOrigin).toMatchObject({ HTTPPort: 8080, OriginProtocolPolicy: 'http-only' });
    const instance = Object.keys(template.findResources('AWS::EC2::Instance'));
    expect(JSON.stringify(vpcOrigin.Arn)).toContain(`{"Ref":"${instance[0]}"}`);
    expect(JSON.stringify(vpcOrigin.Arn)).toContain(':instance/');
  });

  it('without the ingress (-c largeUploads=off), sends the upload paths to the API, whose function answers a large POST with a 413', () => {
    const off = plainConfig();
    const resourcesOff = Template.fromStack(plain()).toJSON().Resources as Record<string, Json>;
    expect(off.Origins.map((origin: Json) => origin.Id)).not.toContain(originIds.ingress);
    Template.fromStack(plain()).resourceCountIs('AWS::CloudFront::VpcOrigin', 0);
    const code = uploadRoutingFunctionCode({ limitBytes: bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb), large: 'refuse' });
    for (const path of uploadPaths) {
      const upload = off.CacheBehaviors.find((each: Json) => each.PathPattern === path);
      expect(upload.TargetOriginId, path).toBe(originIds.api);
      expect(resourcesOff[logicalIdOf(upload.FunctionAssociations[0].FunctionARN)]?.Properties.FunctionCode, path).toBe(code);
    }
  });

  it('gives the URL as an output, on a custom domain when asked by context (both the name and the certificate)', () => {
    const outputs = template.toJSON().Outputs as Json;
    expect(JSON.stringify(outputs.WebUrl.Value)).toContain('DomainName');
    expect(JSON.stringify(outputs.ApiUrl.Value)).toContain('/api');
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-aaaa-bbbb-cccc-111122223333';
    const custom = synth({ domainName: 'photos.example.com', certificateArn });
    custom.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['photos.example.com'],
        ViewerCertificate: { AcmCertificateArn: certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
      }),
    });
    expect((custom.toJSON().Outputs as Json).WebUrl.Value).toBe('https://photos.example.com');
    // The originals' CORS rule names the custom domain (known before the deploy: no cycle with the ingress).
    const originals = Object.values(custom.findResources('AWS::S3::Bucket')).find(
      (bucket: Json) => bucket.Properties.VersioningConfiguration,
    ) as Json;
    expect(originals.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual(['https://photos.example.com']);
    expect(() => synth({ domainName: 'photos.example.com' })).toThrow(/certificateArn/);
  });
});

describe('the share pages’ function as bundled for Lambda', () => {
  it('carries the build’s index.html beside its bundle, where WEB_INDEX finds it from the task root', async () => {
    const webDir = mkdtempSync(join(tmpdir(), 'web-build-'));
    const outdir = mkdtempSync(join(tmpdir(), 'share-bundle-'));
    try {
      const index = '<!doctype html><head><!-- metadata:tags --></head><title>bundled stand-in</title>';
      writeFileSync(join(webDir, 'index.html'), index);
      const app = new App({ outdir });
      const stack = new Stack(app, 'SharePage', { env: { region: 'eu-west-1' } });
      const route = webRoutes.find((each) => each.operationId === 'renderSharePage');
      if (!route) throw new Error('no share page route');
      new ApiFunction(stack, 'SharePage', {
        route,
        table: new TableV2(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }),
        originals: new Bucket(stack, 'Originals'),
        linkSecret: new Secret(stack, 'Secret'),
        mediaFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:media',
        realtimeEndpoint: 'https://example.execute-api.eu-west-1.amazonaws.com/live',
        role: new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }),
        logGroupPrefix: '/immich/test/',
        webIndex: join(webDir, 'index.html'),
      });
      app.synth();
      const assetDir = readdirSync(outdir)
        .map((name) => join(outdir, name))
        .find((dir) => existsSync(join(dir, 'index.mjs')));
      if (!assetDir) throw new Error('no bundle');
      expect(readFileSync(join(assetDir, 'index.html'), 'utf8')).toBe(index);

      // Run as Lambda runs it: from the task root, WEB_INDEX as the stack sets it.
      const saved = { root: process.env.LAMBDA_TASK_ROOT, index: process.env.WEB_INDEX };
      process.env.LAMBDA_TASK_ROOT = assetDir;
      process.env.WEB_INDEX = 'index.html';
      try {
        const { handler } = (await import(pathToFileURL(join(assetDir, 'index.mjs')).href)) as { handler: Parameters<typeof invoke>[0] };
        const reply = await invoke<string>(handler, {
          path: '/share/unknown',
          routeKey: 'GET /share/{key+}',
          pathParameters: { key: 'unknown' },
        });
        expect(reply.status).toBe(200);
        expect(reply.body).toBe(index);
      } finally {
        for (const [name, value] of [
          ['LAMBDA_TASK_ROOT', saved.root],
          ['WEB_INDEX', saved.index],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    } finally {
      rmSync(webDir, { recursive: true, force: true });
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
