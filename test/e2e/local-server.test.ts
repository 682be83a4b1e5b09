import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, localClient } from '#infra/local/dynamodb-local.ts';

const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'immich-data-'));

interface Started {
  child: ChildProcess;
  output: () => string;
  dynamoEndpoint: string;
}

/** Runs `node infra/local-server.ts` (what `npm start` runs) with its own PORT and DATA_DIR. */
const start = async (port: number): Promise<Started> => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, TABLE_NAME: 'immich' };
  delete env.AWS_ENDPOINT_URL_DYNAMODB;
  const child = spawn(process.execPath, [join(root, 'infra', 'local-server.ts')], { cwd: root, env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('listening on')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start within 30 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const dynamoEndpoint = /DynamoDB Local at (http:\/\/[\d.:]+)/.exec(output)?.[1] ?? '';
  return { child, output: () => output, dynamoEndpoint };
};

const stop = (child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> =>
  new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });

const javaProcessesFor = (dir: string): string =>
  spawnSync('pgrep', ['-af', 'DynamoDBLocal'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.includes(dir))
    .join('\n');

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start (infra/local-server.ts)', () => {
  it('serves on PORT, keeps data in DATA_DIR across restarts, and leaves no Java process behind', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toContain(`http://localhost:${port}/api`);
    expect(first.output()).toContain(join(dataDir, 'dynamodb'));
    expect(await (await fetch(`http://127.0.0.1:${port}/api/server-info/ping`)).json()).toEqual({ res: 'pong' });

    const item = { pk: { S: 'TEST#persist' }, sk: { S: 'TEST#persist' }, value: { S: 'kept' } };
    await localClient(first.dynamoEndpoint).send(new PutItemCommand({ TableName: 'immich', Item: item }));
    expect(await stop(first.child, 'SIGINT')).toBe(0);
    expect(javaProcessesFor(dataDir)).toBe('');

    const second = await start(port);
    expect(second.output()).toContain('(existed)');
    const read = await localClient(second.dynamoEndpoint).send(
      new GetItemCommand({ TableName: 'immich', Key: { pk: item.pk, sk: item.sk } }),
    );
    expect(read.Item?.value).toEqual({ S: 'kept' });
    expect(await stop(second.child, 'SIGTERM')).toBe(0);
    expect(javaProcessesFor(dataDir)).toBe('');
  }, 90_000);
});
