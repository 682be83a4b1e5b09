import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeText, type MlSettings } from '#shared/ml/ml.ts';
import { resetHealth } from '#shared/ml/remote.ts';
import { configDefaults } from '#shared/model/config.ts';
import { savedEnv } from '../support/env.ts';
import { failure } from '../support/errors.ts';
import { type MlService, startMlService } from '../support/ml-service.ts';
import { type SecretsManagerStandIn, startSecretsManager } from '../support/secrets-manager.ts';

/**
 * The reverse proxy's header deployed (`ML_AUTH_SECRET_ARN`, docs/machine-learning.md, "Behind a
 * reverse proxy"): read through the AWS SDK from a Secrets Manager stand-in on loopback (as in
 * oauth-deployed-settings.test.ts), once per process, and sent with every request to the ML service.
 */
const secretArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:MlHeader-AbCdEf';
let secrets: SecretsManagerStandIn;
let service: MlService;
let answer: 'secret' | 'denied' | 'shapeless' = 'secret';
const saved = savedEnv('ML_AUTH_SECRET_ARN', 'AWS_ENDPOINT_URL_SECRETS_MANAGER');

const settings = (): MlSettings => ({ ...structuredClone(configDefaults.machineLearning), urls: [service.url] });

beforeAll(async () => {
  service = await startMlService();
  secrets = await startSecretsManager((secretId) => {
    if (answer === 'denied' || !secretId.startsWith(secretArn)) return undefined;
    return answer === 'shapeless' ? 'just a string' : JSON.stringify({ name: 'X-Ml-Key', value: 'from-the-secret' });
  });
  process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER = secrets.endpoint;
});

afterAll(async () => {
  saved.restore();
  await service.close();
  await secrets.close();
});

beforeEach(() => {
  resetHealth();
  service.requests.length = 0;
});

describe('ML_AUTH_SECRET_ARN', () => {
  it('answers 502 while the secret cannot be read, sending nothing, and reads it again on the next request', async () => {
    answer = 'denied';
    process.env.ML_AUTH_SECRET_ARN = secretArn;
    const before = secrets.reads;
    expect((await failure(encodeText(settings(), 'red'))).kind).toBe('upstream');
    expect((await failure(encodeText(settings(), 'red'))).kind).toBe('upstream');
    expect(secrets.reads - before).toBeGreaterThanOrEqual(2);
    expect(service.requests).toEqual([]);
  });

  it('sends the header the secret holds, read once for every request after', async () => {
    answer = 'secret';
    await encodeText(settings(), 'red');
    const after = secrets.reads;
    await encodeText(settings(), 'blue');
    expect(secrets.reads).toBe(after);
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
