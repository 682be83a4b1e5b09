import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '#shared/core/errors.ts';
import { encodeText, type MlSettings } from '#shared/ml/ml.ts';
import { resetHealth } from '#shared/ml/remote.ts';
import { configDefaults } from '#shared/model/config.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';

/**
 * The reverse proxy's header deployed (`ML_AUTH_SECRET_ARN`, docs/machine-learning.md, "Behind a
 * reverse proxy"): read through the AWS SDK from a Secrets Manager stand-in on loopback (as in
 * oauth-deployed-settings.test.ts), once per process, and sent with every request to the ML service.
 */
const secretArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:MlHeader-AbCdEf';
let secrets: Server;
let service: MlService;
let reads = 0;
let answer: 'secret' | 'denied' | 'shapeless' = 'secret';
const saved = { arn: process.env.ML_AUTH_SECRET_ARN, endpoint: process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER };

const settings = (): MlSettings => ({ ...structuredClone(configDefaults.machineLearning), urls: [service.url] });

beforeAll(async () => {
  service = await startMlService();
  secrets = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      reads++;
      const { SecretId } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { SecretId?: string };
      const found =
        answer !== 'denied' && req.headers['x-amz-target'] === 'secretsmanager.GetSecretValue' && SecretId?.startsWith(secretArn) === true;
      const value = answer === 'shapeless' ? 'just a string' : JSON.stringify({ name: 'X-Ml-Key', value: 'from-the-secret' });
      res.writeHead(found ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(found ? { ARN: SecretId, SecretString: value } : { __type: 'AccessDeniedException', message: 'denied' }));
    });
  });
  await new Promise<void>((resolve) => secrets.listen(0, '127.0.0.1', resolve));
  process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const [name, value] of [
    ['ML_AUTH_SECRET_ARN', saved.arn],
    ['AWS_ENDPOINT_URL_SECRETS_MANAGER', saved.endpoint],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await service.close();
  await new Promise((resolve) => secrets.close(resolve));
});

beforeEach(() => {
  resetHealth();
  service.requests.length = 0;
});

const failure = async (promise: Promise<unknown>): Promise<DomainError> => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
};

describe('ML_AUTH_SECRET_ARN', () => {
  it('answers 502 while the secret cannot be read, sending nothing, and reads it again on the next request', async () => {
    answer = 'denied';
    process.env.ML_AUTH_SECRET_ARN = secretArn;
    const before = reads;
    expect((await failure(encodeText(settings(), 'red'))).kind).toBe('upstream');
    expect((await failure(encodeText(settings(), 'red'))).kind).toBe('upstream');
    expect(reads - before).toBeGreaterThanOrEqual(2);
    expect(service.requests).toEqual([]);
  });

  it('sends the header the secret holds, read once for every request after', async () => {
    answer = 'secret';
    await encodeText(settings(), 'red');
    const after = reads;
    await encodeText(settings(), 'blue');
    expect(reads).toBe(after);
    expect(service.requests.map((request) => request.headers['x-ml-key'])).toEqual(['from-the-secret', 'from-the-secret']);
  });

  it('refuses a secret without a name and a value', async () => {
    answer = 'shapeless';
    // Another secret (a new ARN) is read afresh.
    process.env.ML_AUTH_SECRET_ARN = `${secretArn}2`;
    const error = await failure(encodeText(settings(), 'red'));
    expect([error.kind, error.message]).toEqual([
      'upstream',
      'The secret ML_AUTH_SECRET_ARN names is not a header the machine learning service can be sent (expected a name and a value)',
    ]);
    expect(service.requests).toEqual([]);
  });
});
