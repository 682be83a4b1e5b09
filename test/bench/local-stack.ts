import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTable, localAwsEnv, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';

/**
 * What the sections that measure through HTTP share: DynamoDB Local (in memory, or on disk under
 * `dbPath`), a fresh table,
 * the local server on a free port, and a signed-up admin. Call it before importing anything that
 * reads TABLE_NAME (the handlers read it at import). `tableName` with `existing`: a table kept on
 * disk by an earlier run (the scale bench's `--reuse`), whose admin logs in instead of signing up.
 */
export const startLocalStack = async (
  env: Record<string, string> = {},
  options: { dbPath?: string; tableName?: string; existing?: boolean } = {},
) => {
  const dynamo = await startDynamoDbLocal(options.dbPath ? { dbPath: options.dbPath } : {});
  const tableName = options.tableName ?? `bench-${Date.now()}`;
  Object.assign(process.env, localAwsEnv, {
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    TABLE_NAME: tableName,
    SHARED_LINK_SECRET: randomUUID(),
    ...env,
  });
  await ensureTable(dynamo.endpoint, tableName);
  const { createLocalServer } = await import('#infra/local/http-server.ts');
  const sdk = await import('@immich/sdk');
  const server = createLocalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const signedUp = options.existing
    ? undefined
    : await sdk.signUpAdmin({ signUpDto: { email: 'bench@immich.cloud', password: 'password', name: 'Bench' } }, { baseUrl });
  const session = await sdk.login({ loginCredentialDto: { email: 'bench@immich.cloud', password: 'password' } }, { baseUrl });
  const admin = signedUp ?? (await sdk.getMyUserInfo({ baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } }));
  return {
    tableName,
    baseUrl,
    admin,
    adminAuth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } },
    /** Resolves when the media work the uploads started is done. */
    mediaIdle: () => server.mediaIdle(),
    stop: async () => {
      // The previews its uploads started use the table: they finish first.
      await server.mediaIdle();
      server.closeAllConnections();
      server.close();
      await dynamo.stop();
    },
  };
};

/** A section that runs its module as a script in a process of its own (its own DynamoDB client and env). */
export const ownProcess = (moduleUrl: string) => async (): Promise<string> =>
  execFileSync(process.execPath, [fileURLToPath(moduleUrl)], {
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
    maxBuffer: 1 << 24,
  });

/**
 * The same as `startLocalStack`, but served by the deployed form (`npm run start:deployed`:
 * infra/local/deployed/start.ts): the synthesized template's routes (API Gateway's 6 MB, the
 * distribution's function URLs for the streamed routes) in front of each function's bundle in its
 * own worker with the function's memory (its heap limit) and timeout, every AWS call through the
 * IAM-checking gateway. The assembly is `CDK_OUT` when given (synthesized already), else
 * synthesized here (`cdk synth`, minutes). This process's own DynamoDB client (a generation, the
 * bench's meter) talks to DynamoDB Local directly; the functions go through the gateway.
 */
export const startDeployedStack = async (
  env: { s3Dir: string },
  options: { dbPath?: string; tableName?: string; existing?: boolean } = {},
) => {
  const dynamo = await startDynamoDbLocal(options.dbPath ? { dbPath: options.dbPath } : {});
  const tableName = options.tableName ?? `bench-${Date.now()}`;
  const secret = randomUUID();
  Object.assign(process.env, localAwsEnv, {
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    TABLE_NAME: tableName,
    SHARED_LINK_SECRET: secret,
  });
  await ensureTable(dynamo.endpoint, tableName);
  const assemblyDir = process.env.CDK_OUT ?? synthesize();
  const { listen, startDeployed } = await import('#infra/local/deployed/start.ts');
  // The functions' reads and writes, counted on their way from the gateway to DynamoDB Local.
  const { table } = await import('#shared/db/table.ts');
  const { startDynamoMeter } = await import('./scale/dynamo-meter.ts');
  const metered = await startDynamoMeter(dynamo.endpoint, table.indexes);
  const failures: string[] = [];
  const api = await startDeployed({
    assemblyDir,
    tableName,
    dynamoDb: { endpoint: metered.endpoint, accessKeyId: localAwsEnv.AWS_ACCESS_KEY_ID },
    s3Dir: env.s3Dir,
    secretValue: secret,
    logLevel: 'silent',
    onFailure: (functionId, message) => failures.push(`${functionId.split('/').pop()}: ${message}`),
  });
  const baseUrl = `http://127.0.0.1:${await listen(api.server)}/api`;
  const sdk = await import('@immich/sdk');
  const signedUp = options.existing
    ? undefined
    : await sdk.signUpAdmin({ signUpDto: { email: 'bench@immich.cloud', password: 'password', name: 'Bench' } }, { baseUrl });
  const session = await sdk.login({ loginCredentialDto: { email: 'bench@immich.cloud', password: 'password' } }, { baseUrl });
  const admin = signedUp ?? (await sdk.getMyUserInfo({ baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } }));
  /** The function that serves a route (its template description ends with `(METHOD /api/path)`). */
  const functionOf = (route: string) => {
    const fn = [...api.deployment.functions.values()].find((each) => each.description.endsWith(`(${route})`));
    if (!fn) throw new Error(`no function of the template serves ${route}`);
    return fn;
  };
  return {
    tableName,
    baseUrl,
    admin,
    adminAuth: { baseUrl, headers: { Authorization: `Bearer ${session.accessToken}` } },
    /** What the functions read and wrote (./scale/dynamo-meter.ts): the caller zeroes it before each request. */
    meter: metered.meter,
    /** Failed invocations (a timeout, a heap out of memory, an answer past 6 MB) as they happen. */
    failures,
    functionOf,
    /** The largest heap any environment of the function uses now, in bytes. */
    heapUsed: async (functionId: string) => Math.max(0, ...(await api.heapUsed(functionId))),
    mediaIdle: () => api.idle(),
    stop: async () => {
      await api.idle();
      await api.close();
      await metered.close();
      await dynamo.stop();
    },
  };
};

/** `cdk synth` of this tree into a scratch folder, as the tests' deployed project synthesizes (offline, no web build). */
const synthesize = (): string => {
  const root = join(import.meta.dirname, '..', '..');
  const out = join(mkdtempSync(join(tmpdir(), 'bench-cdk-out-')), 'cdk.out');
  execFileSync(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', out], {
    cwd: root,
    env: {
      ...process.env,
      PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: '',
      CDK_DISABLE_VERSION_CHECK: '1',
      WEB_DIR: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return out;
};
