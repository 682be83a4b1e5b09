import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDeployment } from '#infra/local/deployed/assembly.ts';
import { routes } from '#infra/routes.ts';
import { deployedAssembly } from '../support/assembly.ts';

const local = {
  tableName: 't',
  bucketName: 'b',
  secretArn: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:s-abcdef',
  region: 'us-east-1',
  account: '000000000000',
  stackUuid: '5e1f0a2b-0000-4000-8000-00000000abcd',
};

const dir = await deployedAssembly();

describe('cdk synth (run once for this project, offline)', () => {
  it('writes the main stack and one nested stack per area, every function bundled as an ESM file', () => {
    const files = readdirSync(dir);
    expect(files).toContain('ImmichServerless.template.json');
    const nested = files.filter((file) => file.endsWith('.nested.template.json'));
    expect(nested.length).toBeGreaterThan(5);
    const functions = nested.flatMap((file) =>
      Object.values(
        JSON.parse(readFileSync(join(dir, file), 'utf8')).Resources as Record<string, { Type: string; Metadata?: Record<string, string> }>,
      ).filter((r) => r.Type === 'AWS::Lambda::Function'),
    );
    expect(functions).toHaveLength(routes.length);
    for (const fn of functions) {
      const asset = fn.Metadata?.['aws:asset:path'];
      expect(asset && existsSync(join(dir, asset, 'index.mjs'))).toBe(true);
    }
  });

  it('deploys exactly the route table: every row is a route of the HTTP API (and a HEAD route where it says so; a streaming one a function URL), to a function of its own', () => {
    const deployment = loadDeployment(dir, 'ImmichServerless', local);
    const keys = deployment.routes.map((route) => route.routeKey).sort();
    const expected = routes
      .filter((route) => !route.stream)
      .flatMap((route) =>
        route.path === '$default'
          ? ['ANY /', 'ANY /{proxy+}']
          : [`${route.method} ${route.path}`, ...(route.head ? [`HEAD ${route.path}`] : [])],
      );
    expect(keys).toEqual(expected.sort());
    const targets = new Set(deployment.routes.map((route) => route.functionId));
    expect(targets.size).toBe(routes.filter((route) => !route.stream).length);
    for (const id of targets) expect(deployment.functions.get(id)).toBeDefined();
    expect(deployment.functionUrls).toHaveLength(routes.filter((route) => route.stream).length);
    for (const url of deployment.functionUrls) {
      expect(url).toMatchObject({ invokeMode: 'RESPONSE_STREAM', authType: 'NONE' });
      // Its token resolves to the stack id's UUID, as the distribution's header does.
      expect(deployment.functions.get(url.functionId)?.environment.ORIGIN_VERIFY).toBe(local.stackUuid);
    }
  });

  it('resolves each function’s environment and role to the local resources, with no unresolved reference left', () => {
    const deployment = loadDeployment(dir, 'ImmichServerless', local);
    for (const fn of deployment.functions.values()) {
      expect(JSON.stringify(fn.environment)).not.toMatch(/Ref|Fn::|referenceto/);
      expect(fn.roleArn).toMatch(
        /^arn:aws:iam::000000000000:role\/(FunctionRoles|MediaRole|TranscodeRole|NightlyRole|Realtime\w*Role)\w+$/,
      );
      expect(deployment.policies.get(fn.roleArn)?.length).toBeGreaterThan(0);
    }
    const upload = [...deployment.functions.values()].find((fn) => fn.id.endsWith('/UploadFile') || /\/UploadFile[0-9A-F]{8}$/.test(fn.id));
    expect(upload?.environment).toMatchObject({ TABLE_NAME: 't', ORIGINALS_BUCKET: 'b', MAX_UPLOAD_MB: '4.4' });
  });

  it('serves Immich’s socket as the template defines it: the WebSocket API’s routes, the distribution’s behavior, the heartbeat', () => {
    const deployment = loadDeployment(dir, 'ImmichServerless', local);
    const [api, ...others] = deployment.webSocketApis;
    expect(others).toEqual([]);
    expect(api?.stage).toBe('live');
    const target = (key: string) => api?.routes.find((route) => route.routeKey === key)?.target;
    expect(target('$default')).toBe('MOCK');
    const description = (key: string) => {
      const found = target(key);
      return found && found !== 'MOCK' ? deployment.functions.get(found.functionId)?.description : undefined;
    };
    expect(description('$connect')).toMatch(/^Immich realtime: \$connect/);
    expect(description('$disconnect')).toMatch(/^Immich realtime: \$disconnect/);
    expect(deployment.socketBehaviors).toEqual([{ pathPattern: '/api/socket.io/*', apiId: api?.apiId }]);
    const heartbeat = [...deployment.functions.values()].find((fn) => fn.description.startsWith('Immich realtime: the heartbeat'));
    expect(deployment.schedules).toContainEqual({ functionId: heartbeat?.id, rateMs: 300_000 });
    // Every function that posts carries the management API's client beside its bundle, resolvable as a package.
    const posting = [...deployment.functions.values()].filter((fn) => fn.environment.REALTIME_ENDPOINT !== undefined);
    expect(posting.length).toBeGreaterThan(20);
    for (const fn of posting) {
      expect(fn.environment.REALTIME_ENDPOINT).toBe(`https://${api?.apiId}.execute-api.us-east-1.amazonaws.com/live`);
      const client = join(fn.codeDir, 'node_modules', '@aws-sdk', 'client-apigatewaymanagementapi');
      expect(existsSync(join(client, 'index.mjs')), fn.id).toBe(true);
      expect(JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', main: 'index.mjs' });
    }
  });

  it('has the originals bucket notify the media function of originals only, its codecs shipped beside its bundle', () => {
    const deployment = loadDeployment(dir, 'ImmichServerless', local);
    expect(deployment.notifications).toHaveLength(1);
    const [notification] = deployment.notifications;
    expect(notification?.prefix).toBe('upload/');
    const media = deployment.functions.get(notification?.functionId ?? '');
    expect(media).toMatchObject({ memoryMb: 3584, timeoutSeconds: 300, environment: { TABLE_NAME: 't', ORIGINALS_BUCKET: 'b' } });
    for (const file of ['package.json', 'lib/vips-node.mjs', 'lib/vips.wasm', 'lib/vips-heif.wasm']) {
      expect(existsSync(join(media?.codeDir ?? '', 'node_modules', 'wasm-vips', file)), file).toBe(true);
    }
    // The HEIC decoder's libheif: its WebAssembly build only.
    for (const file of ['package.json', 'libheif-wasm/libheif.js', 'libheif-wasm/libheif.wasm']) {
      expect(existsSync(join(media?.codeDir ?? '', 'node_modules', 'libheif-js', file)), file).toBe(true);
    }
    expect(existsSync(join(media?.codeDir ?? '', 'node_modules', 'libheif-js', 'libheif-wasm', 'libheif-bundle.js'))).toBe(false);
  });
});
