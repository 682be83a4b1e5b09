import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiGateway } from '#infra/local/deployed/api-gateway.ts';
import type { DeployedFunction, Deployment } from '#infra/local/deployed/assembly.ts';
import { FunctionPool } from '#infra/local/deployed/lambda-pool.ts';
import { listen } from '#infra/local/deployed/start.ts';

// Functions written for the occasion (each an `index.mjs` as in an assembly), behind the same
// API Gateway the deployed stack is served with.
const handlers: Record<string, string> = {
  Plain: `export const handler = async (event) => ({ hello: event.pathParameters?.name ?? 'world' });`,
  Big: `export const handler = async () => ({ statusCode: 200, body: 'x'.repeat(6_300_000) });`,
  Throws: `export const handler = async () => { throw new TypeError('boom'); };`,
  Crashes: `export const handler = async () => { process.exit(3); };`,
  Env: `export const handler = async () => ({ statusCode: 200, body: JSON.stringify({ table: process.env.TABLE_NAME ?? null, home: process.env.HOME ?? null, region: process.env.AWS_REGION }) });`,
};

const dir = mkdtempSync(join(tmpdir(), 'gateway-'));
const functions = Object.entries(handlers).map(([id, code]): DeployedFunction => {
  mkdirSync(join(dir, id));
  writeFileSync(join(dir, id, 'index.mjs'), code);
  return {
    id,
    codeDir: join(dir, id),
    handler: 'index.handler',
    environment: { TABLE_NAME: 'from-template' },
    memoryMb: 256,
    timeoutSeconds: 5,
    roleArn: '',
    description: id,
  };
});
const deployment: Deployment = {
  functions: new Map(functions.map((fn) => [fn.id, fn])),
  schedules: [],
  eventRules: [],
  functionUrls: [],
  streamBehaviors: [],
  behaviorPatterns: [],
  edgeBehaviors: [],
  origins: new Map(),
  ingress: undefined,
  webSocketApis: [],
  socketBehaviors: [],
  routes: [
    { routeKey: 'GET /plain/{name}', functionId: 'Plain' },
    { routeKey: 'GET /big', functionId: 'Big' },
    { routeKey: 'GET /throws', functionId: 'Throws' },
    { routeKey: 'GET /crashes', functionId: 'Crashes' },
    { routeKey: 'GET /env', functionId: 'Env' },
  ],
  policies: new Map(),
  bucketCors: [],
  notifications: [],
  region: 'us-east-1',
  account: '000000000000',
};
const pools = new Map(functions.map((fn) => [fn.id, new FunctionPool(fn, { ...fn.environment, AWS_REGION: 'us-east-1' })]));
const failures: string[] = [];
const server = createApiGateway({ deployment, pools, onFailure: (_id, message) => failures.push(message) });
let base = '';

beforeAll(async () => {
  base = `http://127.0.0.1:${await listen(server)}`;
});
afterAll(async () => {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local API Gateway in front of Lambda environments', () => {
  it('payload format 2.0: a result without statusCode is a 200 JSON body', async () => {
    const response = await fetch(`${base}/plain/you`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ hello: 'you' });
  });

  it('gives a function only its environment from the template and what Lambda sets, not the host’s', async () => {
    expect(await (await fetch(`${base}/env`)).json()).toEqual({ table: 'from-template', home: null, region: 'us-east-1' });
  });

  it('a response over Lambda’s 6 MB: 500 Internal Server Error, as API Gateway answers a failed invocation', async () => {
    const response = await fetch(`${base}/big`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    expect(failures.at(-1)).toMatch(/Response payload size exceeded/);
  });

  it('an error the handler throws, or a runtime that exits: 500, and the next call gets a new environment', async () => {
    expect((await fetch(`${base}/throws`)).status).toBe(500);
    expect(failures.at(-1)).toBe('TypeError: boom');
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/crashes`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
      expect(failures.at(-1)).toBe('Runtime exited with code 3');
    }
  });

  it('a route the API does not have: API Gateway’s 404', async () => {
    const response = await fetch(`${base}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
  });
});
