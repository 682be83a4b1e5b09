import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as env from '../core/env.ts';
import { DomainError } from '../core/errors.ts';

/** One HTTP header: what a reverse proxy in front of the Immich ML service checks. */
export interface AuthHeader {
  name: string;
  value: string;
}

// RFC 9110's token: the characters a header name may have.
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const checked = (name: unknown, value: unknown, source: string): AuthHeader => {
  if (typeof name !== 'string' || !headerName.test(name) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
    throw new DomainError('upstream', `${source} is not a header the machine learning service can be sent (expected a name and a value)`);
  }
  return { name, value: value.trim() };
};

/** `Name: value`, as `ML_AUTH_HEADER` holds it. */
export const parseAuthHeader = (text: string): AuthHeader => {
  const colon = text.indexOf(':');
  return checked(colon > 0 ? text.slice(0, colon).trim() : undefined, text.slice(colon + 1), 'ML_AUTH_HEADER');
};

let fetched: { arn: string; header: Promise<AuthHeader> } | undefined;

// The SDK's client is imported statically: an import() of it made esbuild wrap every SDK module it
// shares with the S3 and DynamoDB clients in lazy-init closures, which cost the media function
// more at its cold start than the client itself (docs/benchmarks.md, "Machine learning's split").
const fetchSecret = async (arn: string): Promise<AuthHeader> => {
  const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  let parsed: { name?: unknown; value?: unknown } = {};
  try {
    parsed = JSON.parse(SecretString ?? '') as typeof parsed;
  } catch {
    // reported below, as a secret without the two fields
  }
  return checked(parsed?.name, parsed?.value, 'The secret ML_AUTH_SECRET_ARN names');
};

/**
 * The header each request to the ML service carries, if one is set (docs/machine-learning.md):
 * `ML_AUTH_HEADER` (`npm start`, tests), else deployed the secret `ML_AUTH_SECRET_ARN` names, read
 * once per process and kept in memory; a failed read is not kept, so the next request tries again.
 */
export const authHeader = (): Promise<AuthHeader | undefined> => {
  const local = env.mlAuthHeader();
  if (local) {
    try {
      return Promise.resolve(parseAuthHeader(local));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const arn = env.mlAuthSecretArn();
  if (!arn) return Promise.resolve(undefined);
  if (fetched?.arn !== arn) {
    const header = fetchSecret(arn).catch((error: unknown) => {
      fetched = undefined;
      throw error instanceof DomainError
        ? error
        : new DomainError('upstream', `The machine learning header's secret could not be read: ${String(error)}`);
    });
    fetched = { arn, header };
  }
  return fetched.header;
};
