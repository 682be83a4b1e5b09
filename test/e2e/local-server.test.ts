import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, ListTablesCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, localClient } from '#infra/local/dynamodb-local.ts';
import { openSocket } from '../support/realtime.ts';
import { hangGuard } from '../support/timeouts.ts';

const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'immich-data-'));

interface Started {
  child: ChildProcess;
  output: () => string;
  dynamoEndpoint: string;
}

/** Runs `node infra/local/main.ts` (what `npm start` runs) with its own PORT and DATA_DIR. */
const start = async (port: number): Promise<Started> => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, TABLE_NAME: 'immich' };
  delete env.AWS_ENDPOINT_URL_DYNAMODB;
  const child = spawn(process.execPath, [join(root, 'infra', 'local', 'main.ts')], { cwd: root, env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + hangGuard.wait;
  while (!output.includes('listening on')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
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

describe('npm start (infra/local/main.ts)', () => {
  it('keeps its data to itself: loopback only, files 0600 in a 0700 folder, a database other credentials cannot see, no browser origin', async () => {
    const port = await freePort();
    const { child, dynamoEndpoint } = await start(port);
    try {
      // The API answers on loopback and on no other address of this machine.
      expect((await fetch(`http://127.0.0.1:${port}/api/server-info/ping`)).status).toBe(200);
      const external = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
      if (external) await expect(fetch(`http://${external}:${port}/api/server-info/ping`)).rejects.toThrow();
      // DynamoDB Local takes any credentials, but each key id has its own database: a stranger's is empty.
      expect((await localClient(dynamoEndpoint, 'AKIASTRANGER').send(new ListTablesCommand({}))).TableNames).toEqual([]);
      const key = readFileSync(join(dataDir, 'dynamodb-access-key'), 'utf8').trim();
      expect((await localClient(dynamoEndpoint, key).send(new ListTablesCommand({}))).TableNames).toEqual(['immich']);
      // A web page the user visits gets no CORS grant from DynamoDB Local.
      const preflight = await fetch(dynamoEndpoint, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin') ?? '').not.toMatch(/\*|evil/);
      // Nothing in DATA_DIR is readable by other users.
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      expect(files.length).toBeGreaterThan(1);
      for (const file of files) expect(statSync(join(file.parentPath, file.name)).mode & 0o077, file.name).toBe(0);
    } finally {
      await stop(child, 'SIGTERM');
    }
  });

  it('serves on PORT, keeps data in DATA_DIR across restarts, and leaves no Java process behind', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output()).toContain(`http://localhost:${port}/api`);
    expect(first.output()).toContain(join(dataDir, 'dynamodb'));
    expect(await (await fetch(`http://127.0.0.1:${port}/api/server-info/ping`)).json()).toEqual({ res: 'pong' });

    const key = readFileSync(join(dataDir, 'dynamodb-access-key'), 'utf8').trim();
    const item = { pk: { S: 'TEST#persist' }, sk: { S: 'TEST#persist' }, value: { S: 'kept' } };
    await localClient(first.dynamoEndpoint, key).send(new PutItemCommand({ TableName: 'immich', Item: item }));
    expect(await stop(first.child, 'SIGINT')).toBe(0);
    expect(javaProcessesFor(dataDir)).toBe('');

    const second = await start(port);
    expect(second.output()).toContain('(existed)');
    const read = await localClient(second.dynamoEndpoint, key).send(
      new GetItemCommand({ TableName: 'immich', Key: { pk: item.pk, sk: item.sk } }),
    );
    expect(read.Item?.value).toEqual({ S: 'kept' });
    expect(await stop(second.child, 'SIGTERM')).toBe(0);
    expect(javaProcessesFor(dataDir)).toBe('');
  });

  it('stops on SIGTERM while a browser holds its sockets: a keep-alive connection, a request still sending its body, the realtime socket', async () => {
    const port = await freePort();
    const { child, output } = await start(port);
    const origin = `http://127.0.0.1:${port}`;
    const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    try {
      // A signed-in user, as the browser is.
      const post = (path: string, body: unknown) =>
        fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const account = { email: 'stop@example.com', password: 'a-long-password' };
      expect((await post('/api/auth/admin-sign-up', { ...account, name: 'Stop' })).status).toBe(201);
      const { accessToken } = (await (await post('/api/auth/login', account)).json()) as { accessToken: string };
      // 1. A keep-alive connection, idle after its answer (a browser keeps it for the next request).
      const kept = await new Promise<number>((resolve, reject) =>
        request(`${origin}/api/server-info/ping`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end(),
      );
      expect(kept).toBe(200);
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
      // 2. A request whose body is still on its way.
      const sending = request(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
      });
      sending.on('error', () => undefined);
      sending.write('{"email":');
      // 3. The app's realtime socket, open and greeted.
      const socket = openSocket(origin, { token: accessToken });
      await socket.next('on_server_version');
      expect(socket.socket.connected).toBe(true);

      child.kill('SIGTERM');
      // Exits at all (a generous bound, not a measure of speed): before, the held sockets kept it running.
      const deadline = Date.now() + hangGuard.wait;
      while (!exited && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(exited, output()).toBe(true);
      expect(child.exitCode).toBe(0);
      expect(javaProcessesFor(dataDir)).toBe('');
      socket.socket.close();
    } finally {
      agent.destroy();
      if (!exited) {
        // A server that would not stop: killed, with the DynamoDB Local it started (else left running).
        await stop(child, 'SIGKILL');
        for (const line of javaProcessesFor(dataDir).split('\n').filter(Boolean)) process.kill(Number.parseInt(line, 10), 'SIGKILL');
      }
    }
  });
});
