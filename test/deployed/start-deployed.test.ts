import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkBulkUpload, createSharedLink, getAllPeople, getAssetInfo, SharedLinkType, uploadFile } from '@immich/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Deployment } from '#infra/local/deployed/assembly.ts';
import type { Authorization } from '#infra/local/deployed/iam.ts';
import { listen, localBucketName, startDeployed } from '#infra/local/deployed/start.ts';
import { freePort } from '#infra/local/dynamodb-local.ts';
import { deployedAssembly } from '../support/assembly.ts';
import { makeJpeg } from '../support/photos.ts';
import { adminWithApiKey } from '../support/sdk.ts';
import { hangGuard } from '../support/timeouts.ts';

const root = join(import.meta.dirname, '..', '..');
const assemblyDir = await deployedAssembly();
const scratch = mkdtempSync(join(tmpdir(), 'deployed-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Removes an action from the roles of one access class, or all (a grant the stack forgot). */
const withoutAction =
  (action: string, accessClass = '\\w+') =>
  (deployment: Deployment) => {
    const role = new RegExp(`:role/FunctionRoles${accessClass}[0-9A-F]{8}$`);
    for (const [arn, statements] of deployment.policies) {
      if (role.test(arn)) for (const statement of statements) statement.Action = statement.Action.filter((a) => a !== action);
    }
  };

const functionFor = (deployment: Deployment, routeKey: string): string => {
  const id = deployment.routes.find((route) => route.routeKey === routeKey)?.functionId;
  if (!id) throw new Error(`no route ${routeKey}`);
  return id;
};

let running: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** The template served on this file's table, with `adjust` applied first; collects refused AWS calls and failures. */
const serve = async (adjust?: (deployment: Deployment) => void) => {
  const denied: { functionId: string; denied: Authorization }[] = [];
  const failures: string[] = [];
  const api = await startDeployed({
    assemblyDir,
    tableName: process.env.TABLE_NAME ?? '',
    dynamoDb: { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB ?? '', accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local' },
    s3Dir: mkdtempSync(join(scratch, 's3-')),
    secretValue: process.env.SHARED_LINK_SECRET ?? '',
    logLevel: 'silent',
    ...(adjust ? { adjust } : {}),
    onDenied: (functionId, what) => denied.push({ functionId, denied: what }),
    onFailure: (_id, message) => failures.push(message),
  });
  running = api;
  const baseUrl = `http://127.0.0.1:${await listen(api.server)}/api`;
  return { api, baseUrl, denied, failures };
};

/** The file's admin (signed up by the first test that asks), with a fresh API key. */
const account = (baseUrl: string) => adminWithApiKey(baseUrl, 'admin@example.com');

describe('npm run start:deployed', () => {
  it('answers ping on PORT, serving the synthesized assembly (CDK_OUT) with its data in DATA_DIR, and stops on SIGTERM', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: join(scratch, 'data'),
      CDK_OUT: assemblyDir,
      TABLE_NAME: 'immich',
    };
    delete env.AWS_ENDPOINT_URL_DYNAMODB;
    // Its own process group: npm, its shell and the server all get the signal, as Ctrl-C sends it.
    const child: ChildProcess = spawn('npm', ['run', 'start:deployed'], { cwd: root, env, detached: true });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + hangGuard.wait;
      while (!output.includes('listening on')) {
        if (child.exitCode !== null) throw new Error(`exited: ${output}`);
        if (Date.now() > deadline) throw new Error(`did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toContain(`from ${assemblyDir}`);
      const response = await fetch(`http://127.0.0.1:${port}/api/server-info/ping`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ res: 'pong' });
      expect(response.headers.get('apigw-requestid')).toMatch(/^[\w-]{36}$/);
    } finally {
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      // Everything it started ends: the server and its DynamoDB Local (nothing left running).
      const deadline = Date.now() + hangGuard.wait;
      const running = () =>
        spawnSync('pgrep', ['-af', 'local/main.ts|DynamoDBLocal'], { encoding: 'utf8' })
          .stdout.split('\n')
          .filter((line) => line.includes(join(scratch, 'data')) || line.includes(`-g ${child.pid}`));
      const group = () => spawnSync('pgrep', ['-g', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
      while ((group() || running().length > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(group()).toBe('');
      expect(running()).toEqual([]);
    }
  });
});

describe('the synthesized bundles', () => {
  it('read an upload’s metadata with the readers the stack copies beside the upload function (exifr, tz-lookup)', async () => {
    const { baseUrl, failures } = await serve();
    const user = await account(baseUrl);
    // No UTC offset in the file: the zone comes from the GPS position (tz-lookup), the rest from exifr.
    const data = makeJpeg({ make: 'Lazy', dateTimeOriginal: '2023:07:01 12:00:00', latitude: 41.2203, longitude: -96.0716 });
    const dto = {
      assetData: new File([new Uint8Array(data)], 'lazy.jpg'),
      deviceAssetId: 'lazy',
      deviceId: 'x',
      fileCreatedAt: '2024-01-01T00:00:00Z',
      fileModifiedAt: '2024-01-01T00:00:00Z',
    };
    const { id } = await uploadFile({ createAssetDto: dto }, user);
    expect(await getAssetInfo({ id }, user)).toMatchObject({
      exifInfo: { make: 'Lazy', timeZone: 'America/Chicago' },
      fileCreatedAt: '2023-07-01T17:00:00.000Z',
    });
    expect(failures).toEqual([]);
  });
});

describe('the schedules', () => {
  it('tick the nightly tasks as EventBridge does: the function makes "on this day" memories under its own role', async () => {
    const { api, baseUrl, denied, failures } = await serve();
    // The nightly tasks' hourly tick, and the realtime socket's heartbeat every five minutes.
    expect(api.deployment.schedules).toEqual(
      expect.arrayContaining([
        { functionId: expect.stringMatching(/Nightly/), rateMs: 3_600_000 },
        { functionId: expect.stringMatching(/Heartbeat/), rateMs: 300_000 },
      ]),
    );
    expect(api.deployment.schedules).toHaveLength(2);
    const user = await account(baseUrl);
    const data = makeJpeg({ make: 'Nightly', dateTimeOriginal: '2050:04:02 12:00:00', offsetTimeOriginal: '+00:00' });
    const dto = {
      assetData: new File([new Uint8Array(data)], 'night.jpg'),
      deviceAssetId: 'night',
      deviceId: 'x',
      fileCreatedAt: '2050-04-02T12:00:00Z',
      fileModifiedAt: '2050-04-02T12:00:00Z',
    };
    const { id } = await uploadFile({ createAssetDto: dto }, user);
    // Its previews first (the memory job takes only photos with one), then the night of 2 April 2051.
    await api.idle();
    api.tick(new Date('2051-04-02T01:00:00Z'));
    await api.idle();
    expect([denied, failures]).toEqual([[], []]);
    const memories = (await (await fetch(`${baseUrl}/memories?for=2051-04-02`, { headers: user.headers })).json()) as {
      data: { year: number };
      assets: { id: string }[];
    }[];
    expect(memories.map((memory) => [memory.data.year, memory.assets.map((asset) => asset.id)])).toEqual([[2050, [id]]]);
  });
});

describe('IAM from the template, enforced on every AWS call', () => {
  it('refuses a call no policy allows with AccessDeniedException, as AWS does: no function may Scan the table', async () => {
    const { api } = await serve();
    const search = functionFor(api.deployment, 'GET /api/search');
    const client = new DynamoDBClient({
      endpoint: api.awsEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: api.accessKeyOf(search) ?? '', secretAccessKey: 'local' },
    });
    const scan = client.send(new ScanCommand({ TableName: process.env.TABLE_NAME }));
    await expect(scan).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(scan).rejects.toThrow(
      /is not authorized to perform: dynamodb:Scan on resource: arn:aws:dynamodb:us-east-1:000000000000:table\//,
    );
  });

  it('knows callers only by their key: an unknown key is refused, a malformed request gets a 400 and the gateway keeps serving', async () => {
    const { api } = await serve();
    const call = (key: string, body: string) =>
      fetch(api.awsEndpoint, {
        method: 'POST',
        headers: {
          authorization: `AWS4-HMAC-SHA256 Credential=${key}/20261123/us-east-1/dynamodb/aws4_request`,
          'x-amz-target': 'DynamoDB_20120810.GetItem',
        },
        body,
      });
    const stranger = await call('AKIASTRANGER', '{}');
    expect([stranger.status, ((await stranger.json()) as { __type: string }).__type]).toEqual([400, 'UnrecognizedClientException']);
    const key = api.accessKeyOf(functionFor(api.deployment, 'GET /api/search')) ?? '';
    const malformed = await call(key, '{not json');
    expect([malformed.status, ((await malformed.json()) as { __type: string }).__type]).toEqual([400, 'SerializationException']);
    expect((await call(key, '{}')).status).toBe(400);
  });

  it('a caller that drops a presigned download half-way (ffmpeg at each seek) leaves nothing open: the stack still closes', async () => {
    const { api } = await serve();
    // The upload function's role writes an original; the transcode function's reads it (ffprobe and ffmpeg read by presigned URLs).
    const clientOf = (functionId: string) =>
      new S3Client({
        endpoint: api.awsEndpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: api.accessKeyOf(functionId) ?? '', secretAccessKey: 'local' },
      });
    const transcoder = [...api.deployment.functions.values()].find((fn) => fn.environment.MEDIACONVERT_ROLE_ARN !== undefined);
    if (!transcoder) throw new Error('no transcode function in the template');
    const key = 'upload/00000000-0000-4000-8000-000000000000/ab/cd/video.mov';
    await clientOf(functionFor(api.deployment, 'POST /api/assets')).send(
      new PutObjectCommand({ Bucket: localBucketName, Key: key, Body: randomBytes(16 * 1024 * 1024) }),
    );
    const s3 = clientOf(transcoder.id);
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: localBucketName, Key: key }), { expiresIn: 60 });
    // Three readers that take the first bytes and hang up, as ffmpeg does when it seeks.
    for (let reader = 0; reader < 3; reader++)
      await new Promise<void>((resolve, reject) => {
        const request = httpGet(url, (answer) => {
          expect(answer.statusCode).toBe(200);
          answer.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
      });
    // Before, the gateway's reads from s3rver stayed paused and its close never ended (the test's timeout).
    running = undefined;
    await api.close();
  });

  // Listing people: a reading route (listing albums keeps their summaries, a writing one).
  it('catches a missing DynamoDB grant: without dynamodb:Query, listing people fails with AccessDenied and a 500', async () => {
    const { baseUrl, denied } = await serve(withoutAction('dynamodb:Query', 'ReadData'));
    const user = await account(baseUrl);
    // The function catches the refusal and answers its own 500 (counted in its serverErrors metric).
    await expect(getAllPeople({}, user)).rejects.toMatchObject({
      status: 500,
      data: { message: expect.stringMatching(/^Internal server error/) },
    });
    expect(denied.map((d) => d.denied.action)).toContain('dynamodb:Query');
    expect(denied.find((d) => d.denied.action === 'dynamodb:Query')?.denied.resource).toMatch(/table\/test-[\w-]+(\/index\/\w+)?$/);
  });

  it('catches a missing S3 grant: without s3:PutObject an upload fails, and nothing of it is left in the table', async () => {
    const { baseUrl, denied } = await serve(withoutAction('s3:PutObject'));
    const user = await account(baseUrl);
    const file = new File([new Uint8Array(makeJpeg({ make: 'Denied' }))], 'denied.jpg');
    const dto = {
      assetData: file,
      deviceAssetId: 'd1',
      deviceId: 'x',
      fileCreatedAt: '2024-01-01T00:00:00Z',
      fileModifiedAt: '2024-01-01T00:00:00Z',
    };
    await expect(uploadFile({ createAssetDto: dto }, user)).rejects.toMatchObject({ status: 500 });
    const checksum = createHash('sha1')
      .update(makeJpeg({ make: 'Denied' }))
      .digest('hex');
    const check = await checkBulkUpload({ assetBulkUploadCheckDto: { assets: [{ id: 'd1', checksum }] } }, user);
    expect(check.results).toEqual([{ id: 'd1', action: 'accept' }]);
    expect(denied).toEqual([
      expect.objectContaining({
        denied: expect.objectContaining({
          action: 's3:PutObject',
          resource: expect.stringMatching(/^arn:aws:s3:::immich-originals\/upload\//),
        }),
      }),
    ]);
  });

  it('catches a missing Secrets Manager grant: creating a shared link needs the secret, read at run time', async () => {
    const { baseUrl, denied } = await serve(withoutAction('secretsmanager:GetSecretValue'));
    const user = await account(baseUrl);
    const album = await fetch(`${baseUrl}/album`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ albumName: 'a' }),
    });
    const { id } = (await album.json()) as { id: string };
    await expect(createSharedLink({ sharedLinkCreateDto: { type: SharedLinkType.Album, albumId: id } }, user)).rejects.toMatchObject({
      status: 500,
    });
    expect(denied.map((d) => d.denied)).toEqual([
      { action: 'secretsmanager:GetSecretValue', resource: expect.stringMatching(/^arn:aws:secretsmanager:.*:secret:SharedLinkSecret-/) },
    ]);
  });
});

// On a route the distribution sends to API Gateway whatever the size (the upload routes' large
// bodies go to the ingress: test/deployed/ingress.test.ts).
describe('API Gateway and Lambda limits, as AWS answers them', () => {
  it('a body over 10 MB: 413 before any function runs', async () => {
    const { baseUrl, failures } = await serve();
    const response = await fetch(`${baseUrl}/album`, { method: 'POST', body: new Uint8Array(10 * 1024 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request Entity Too Large' });
    expect(failures).toEqual([]);
  });

  it('a body that does not fit in a 6 MB invocation once encoded: API Gateway’s 413, not the function’s', async () => {
    const { baseUrl } = await serve();
    const response = await fetch(`${baseUrl}/album`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(5 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request Entity Too Large' });
  });

  it('a function past its timeout is ended: the client gets 500 Internal Server Error, and the next call starts a new environment', async () => {
    let login = '';
    const { baseUrl, failures } = await serve((deployment) => {
      login = functionFor(deployment, 'POST /api/auth/login');
      const fn = deployment.functions.get(login);
      if (fn) fn.timeoutSeconds = 0.01;
    });
    const attempt = () =>
      fetch(`${baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"a@b.c","password":"x"}',
      });
    for (const response of [await attempt(), await attempt()]) {
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    }
    expect(failures).toEqual(['Task timed out after 0.01 seconds', 'Task timed out after 0.01 seconds']);
    // Other functions are untouched.
    expect((await fetch(`${baseUrl}/server-info/ping`)).status).toBe(200);
  });
});
