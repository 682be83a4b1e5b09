/**
 * The data a local server keeps in DATA_DIR, for `npm start` and `npm run start:deployed` alike:
 * the folder (0700, files 0600), DynamoDB Local with its table (unless AWS_ENDPOINT_URL_DYNAMODB
 * points elsewhere), and the shared-link secret made once and kept beside the data.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DynamoDbLocal, ensureTable, hasJava, javaInstallHint, startDynamoDbLocal } from './dynamodb-local.ts';

/** A secret made once and kept beside the data (mode 0600), e.g. the shared-link key secret. */
const keptSecret = (dir: string, name: string, make: () => string): string => {
  const file = join(dir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
};

export interface LocalData {
  dataDir: string;
  tableName: string;
  /** `created` or `existed`. */
  table: string;
  endpoint: string;
  /** The key id the embedded DynamoDB Local is reached with; undefined for another DynamoDB. */
  accessKeyId: string | undefined;
  dynamo: DynamoDbLocal | undefined;
  linkSecret: string;
}

export const openLocalData = async (dataDir: string, tableName: string): Promise<LocalData> => {
  // Everything this process and DynamoDB Local create (data, originals, secrets) is readable by
  // this user only: the data folder 0700, its files 0600.
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);

  let dynamo: DynamoDbLocal | undefined;
  let endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  let accessKeyId: string | undefined;
  if (!endpoint) {
    if (!hasJava()) {
      console.error(javaInstallHint);
      process.exit(1);
    }
    // DynamoDB Local cannot be bound to loopback and accepts any credentials, but without
    // -sharedDb it keeps one database per access key id: a random id, kept in DATA_DIR, leaves
    // anyone else on the network an empty database.
    accessKeyId = keptSecret(dataDir, 'dynamodb-access-key', () => `LOCAL${randomBytes(15).toString('hex').toUpperCase()}`);
    dynamo = await startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb'), sharedDb: false });
    endpoint = dynamo.endpoint;
    // Last resort: whatever way this process ends, the Java process ends with it.
    process.on('exit', () => dynamo?.process.kill('SIGKILL'));
  }
  const table = await ensureTable(endpoint, tableName, accessKeyId);
  const linkSecret =
    process.env.SHARED_LINK_SECRET ?? keptSecret(dataDir, 'shared-link-secret', () => randomBytes(48).toString('base64url'));
  return { dataDir, tableName, table, endpoint, accessKeyId, dynamo, linkSecret };
};

/** Stops the server and DynamoDB Local on Ctrl-C or SIGTERM, and the server if DynamoDB Local dies. */
export const stopOnSignals = (data: LocalData, stopServer: () => Promise<void>): void => {
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    await stopServer();
    await data.dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  data.dynamo?.process.once('exit', (code) => {
    if (stopping) return;
    console.error(`DynamoDB Local stopped unexpectedly (code ${code}); stopping the server.`);
    process.exit(1);
  });
};

/** The banner both servers print. */
export const banner = (what: string, host: string, port: number, data: LocalData, extra: string[] = []): string =>
  [
    `${what} listening on http://${host === '127.0.0.1' ? 'localhost' : host}:${port}/api`,
    `  DynamoDB: ${data.dynamo ? `DynamoDB Local at ${data.endpoint} (data in ${join(data.dataDir, 'dynamodb')})` : data.endpoint}, table "${data.tableName}" (${data.table})`,
    ...extra,
    '',
    'First steps:',
    `  curl http://localhost:${port}/api/server-info/ping`,
    `  create the admin: curl -X POST http://localhost:${port}/api/auth/admin-sign-up -H 'content-type: application/json' \\`,
    `    -d '{"email":"admin@example.com","password":"a-long-password","name":"Admin"}'`,
    'Press Ctrl-C to stop.',
  ].join('\n');
