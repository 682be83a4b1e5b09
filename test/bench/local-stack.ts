import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
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
