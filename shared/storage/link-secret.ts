import * as env from '../core/env.ts';

let fetched: Promise<string> | undefined;

// The SDK's client is loaded here, on the first read, from beside the bundle (`secretsClientModule`,
// infra/cdk/bundling.ts): kept out of the bundle, its import() wraps nothing of the SDK the bundle
// carries (inside it, an import() made esbuild wrap the SDK's shared modules, 38 KB and 10-20 ms),
// and a cold start that reads no secret (a signed-in user's request) never parses it
// (docs/benchmarks.md, "The background backup path").
const fetchSecret = async (arn: string): Promise<string> => {
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
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
