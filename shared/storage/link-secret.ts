import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as env from '../core/env.ts';

let fetched: Promise<string> | undefined;

// A static import on purpose: measured against `await import()` (docs/benchmarks.md, "Against an
// earlier revision"), the dynamic form made esbuild wrap the SDK's shared modules for lazy
// initialization, which cost every shared-link function 38 KB and 10-20 ms of cold start; the
// static form costs 15 KB and no measurable time.

const fetchSecret = async (arn: string): Promise<string> => {
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error('The shared-link secret has no value');
  return SecretString;
};

/**
 * The deployment secret shared-link keys and tokens are derived from (shared/core/crypto.ts).
 * Deployed, the function's environment holds only the secret's ARN (`SHARED_LINK_SECRET_ARN`):
 * the value is read from Secrets Manager once per container and kept in memory, so anyone allowed
 * `lambda:GetFunctionConfiguration` still cannot read it. `SHARED_LINK_SECRET` (the value itself)
 * is what `npm start` and the tests set. A failed read is not cached: the next request tries again.
 */
export const linkSecret = (): Promise<string> => {
  const value = env.sharedLinkSecret();
  if (value) return Promise.resolve(value);
  const arn = env.sharedLinkSecretArn();
  if (!arn) return Promise.reject(new Error('Environment variable SHARED_LINK_SECRET or SHARED_LINK_SECRET_ARN is required'));
  fetched ??= fetchSecret(arn).catch((error: unknown) => {
    fetched = undefined;
    throw error;
  });
  return fetched;
};
