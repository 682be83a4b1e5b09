import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { signUpAdmin } from '@immich/sdk';
import { describe, expect, it } from 'vitest';
import { freePort } from '#infra/local/dynamodb-local.ts';
import { useServer } from '../support/server.ts';

const root = join(import.meta.dirname, '..', '..');
/** Runs the script in its own process (without blocking this one, which serves the API). */
const smoke = (...args: string[]): Promise<{ stdout: string; status: number | null }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'infra', 'tools', 'smoke.ts'), ...args]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('exit', (status) => resolve({ stdout, status }));
  });

describe('npm run smoke', () => {
  const server = useServer();

  it('passes against a running API, also signing in with given credentials (and out again)', async () => {
    await signUpAdmin({ signUpDto: { email: 'smoke@immich.cloud', password: 'password', name: 'Smoke' } }, { baseUrl: server.baseUrl });
    const result = await smoke(server.baseUrl, 'smoke@immich.cloud', 'password');
    expect(result.stdout).toContain('ok    ping: pong');
    expect(result.stdout).toContain('ok    version: 1.100.0');
    expect(result.stdout).toContain('ok    sign in as smoke@immich.cloud: smoke@immich.cloud (admin), signed out again');
    expect(result.stdout).toContain('All 6 checks passed.');
    expect(result.status).toBe(0);
  });

  it('fails, saying which check and why, against wrong credentials or nothing listening', async () => {
    const wrong = await smoke(server.baseUrl, 'smoke@immich.cloud', 'not-the-password');
    expect(wrong.stdout).toMatch(/FAIL {2}sign in as smoke@immich.cloud: 401 instead of 201/);
    expect(wrong.status).toBe(1);
    const nothing = await smoke(`http://127.0.0.1:${await freePort()}/api`);
    expect(nothing.stdout).toContain('5 of 5 checks failed.');
    expect(nothing.status).toBe(1);
  });
});
