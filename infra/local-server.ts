/**
 * `npm start`: the whole API on this machine. Starts DynamoDB Local (unless
 * AWS_ENDPOINT_URL_DYNAMODB points elsewhere), creates the table if missing, and serves every
 * route of infra/routes.ts at http://localhost:$PORT/api. Ctrl-C stops everything it started.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type DynamoDbLocal, ensureTable, hasJava, javaInstallHint, localAwsEnv, startDynamoDbLocal } from './local/dynamodb-local.ts';
import { createLocalServer } from './local/http-server.ts';

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const tableName = process.env.TABLE_NAME ?? 'immich';
const maxBodyMb = Number(process.env.MAX_UPLOAD_MB ?? 100);

/** The local shared-link key secret: made once, kept beside the data (keys are derived from it). */
const sharedLinkSecret = (dir: string): string => {
  const file = join(dir, 'shared-link-secret');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
};

const main = async (): Promise<void> => {
  let dynamo: DynamoDbLocal | undefined;
  let endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) {
    if (!hasJava()) {
      console.error(javaInstallHint);
      process.exit(1);
    }
    dynamo = await startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb') });
    endpoint = dynamo.endpoint;
    // Last resort: whatever way this process ends, the Java process ends with it.
    process.on('exit', () => dynamo?.process.kill('SIGKILL'));
  }
  for (const [key, value] of Object.entries({
    ...localAwsEnv,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: tableName,
    DATA_DIR: dataDir,
  })) {
    process.env[key] ??= value;
  }
  const table = await ensureTable(endpoint, tableName);
  process.env.SHARED_LINK_SECRET ??= sharedLinkSecret(dataDir);

  const server = createLocalServer({ uploadLimitBytes: maxBodyMb * 1024 * 1024 });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, ready);
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
      `Immich-compatible API listening on http://localhost:${port}/api`,
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
