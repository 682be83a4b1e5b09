/**
 * `npm start`: the whole API on this machine. Starts DynamoDB Local (unless
 * AWS_ENDPOINT_URL_DYNAMODB points elsewhere), creates the table if missing, and serves every
 * route of infra/routes.ts at http://localhost:$PORT/api. Ctrl-C stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type DynamoDbLocal, ensureTable, hasJava, javaInstallHint, localAwsEnv, startDynamoDbLocal } from './local/dynamodb-local.ts';
import { createLocalServer } from './local/http-server.ts';

const port = Number(process.env.PORT ?? 3000);
// Loopback only unless asked: the API is a photo library with its owners' hashes behind it.
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const tableName = process.env.TABLE_NAME ?? 'immich';
const maxBodyMb = Number(process.env.MAX_UPLOAD_MB ?? 100);

/** A secret made once and kept beside the data (mode 0600), e.g. the shared-link key secret. */
const keptSecret = (dir: string, name: string, make: () => string): string => {
  const file = join(dir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
};

const main = async (): Promise<void> => {
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
  // The embedded DynamoDB Local is reached with its own key id; another DynamoDB with the
  // environment's credentials (or DynamoDB Local's usual `local` ones).
  if (accessKeyId) Object.assign(process.env, { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: 'local' });
  for (const [key, value] of Object.entries({
    ...localAwsEnv,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: tableName,
    DATA_DIR: dataDir,
  })) {
    process.env[key] ??= value;
  }
  const table = await ensureTable(endpoint, tableName, accessKeyId);
  process.env.SHARED_LINK_SECRET ??= keptSecret(dataDir, 'shared-link-secret', () => randomBytes(48).toString('base64url'));

  const server = createLocalServer({ uploadLimitBytes: maxBodyMb * 1024 * 1024 });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, ready);
  });

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  dynamo?.process.once('exit', (code) => {
    if (stopping) return;
    console.error(`DynamoDB Local stopped unexpectedly (code ${code}); stopping the server.`);
    process.exit(1);
  });

  console.log(
    [
      `Immich-compatible API listening on http://${host === '127.0.0.1' ? 'localhost' : host}:${port}/api`,
      `  DynamoDB: ${dynamo ? `DynamoDB Local at ${endpoint} (data in ${join(dataDir, 'dynamodb')})` : endpoint}, table "${tableName}" (${table})`,
      '',
      'First steps:',
      `  curl http://localhost:${port}/api/server-info/ping`,
      `  create the admin: curl -X POST http://localhost:${port}/api/auth/admin-sign-up -H 'content-type: application/json' \\`,
      `    -d '{"email":"admin@example.com","password":"a-long-password","name":"Admin"}'`,
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
