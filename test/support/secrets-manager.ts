import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SecretsManagerStandIn {
  /** What `AWS_ENDPOINT_URL_SECRETS_MANAGER` takes: the AWS SDK's Secrets Manager client calls it. */
  endpoint: string;
  /** How many requests it has answered, found or refused. */
  readonly reads: number;
  close(): Promise<void>;
}

/**
 * Secrets Manager on loopback, as `npm run start:deployed` answers it (infra/local/deployed/aws-gateway.ts):
 * `GetSecretValue` of a secret `secretOf` knows (its SecretString), any other call or secret an
 * AccessDeniedException, as the real service answers a function whose role may not read it.
 * Counts the reads, for the tests of how often a function reads its secret.
 */
export const startSecretsManager = async (secretOf: (secretId: string) => string | undefined): Promise<SecretsManagerStandIn> => {
  let reads = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      reads++;
      const { SecretId } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { SecretId?: string };
      const value =
        req.headers['x-amz-target'] === 'secretsmanager.GetSecretValue' && SecretId !== undefined ? secretOf(SecretId) : undefined;
      res.writeHead(value === undefined ? 400 : 200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify(
          value === undefined ? { __type: 'AccessDeniedException', message: 'denied' } : { ARN: SecretId, SecretString: value },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get reads() {
      return reads;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
};
