import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { hangGuard } from '../support/timeouts.ts';

const root = join(import.meta.dirname, '..', '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The `deployed` project's cloud assembly: where `cdk synth` writes it, and the file that
     * says it is done (`{ "ok": true }`, or `{ "ok": false, "error": … }`). Read it through
     * test/support/server.ts `deployedAssembly()`, which waits for that file.
     */
    assembly: { dir: string; done: string };
  }
}

/**
 * `cdk synth` once for the `deployed` project, exactly as `npm run deploy` synthesizes (every
 * function bundled), offline: no credentials and no network. The tests serve what it wrote.
 *
 * It runs in the background: vitest runs every project's global setup before any test file, so a
 * synth awaited here would hold back the whole run (a minute on a quiet 2-core machine, several on
 * a busy one). The unit and integration files run meanwhile, the deployed ones after them
 * (test/setup/sequencer.ts), and each waits for the done file first.
 */
export default function setup(project: TestProject): () => Promise<void> {
  // An assembly synthesized already (`CDK_OUT=<dir>`, as `npm run start:deployed` takes it): served as it is, and kept.
  if (process.env.CDK_OUT) {
    const done = join(mkdtempSync(join(tmpdir(), 'cdk-out-given-')), 'done.json');
    writeFileSync(done, JSON.stringify({ ok: true }));
    project.provide('assembly', { dir: process.env.CDK_OUT, done });
    return async () => rmSync(join(done, '..'), { recursive: true, force: true });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  const assembly = { dir: join(scratch, 'cdk.out'), done: join(scratch, 'done.json') };
  // Its own process group, so its hang guard and an early end of the run stop the app it runs too.
  const child = spawn(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', assembly.dir], {
    cwd: root,
    // No web build (`WEB_DIR=`): the assembly is the same on every machine, with or without one.
    env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_VERSION_CHECK: '1', WEB_DIR: '' },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ended = false;
  const stop = (): void => {
    if (ended || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Ended already.
    }
  };
  const guard = setTimeout(stop, hangGuard.process);
  const synth = new Promise<void>((resolve) => {
    const finish = (error?: string): void => {
      if (ended) return;
      ended = true;
      clearTimeout(guard);
      writeFileSync(assembly.done, JSON.stringify(error ? { ok: false, error: `cdk synth failed: ${error}\n${stderr}` } : { ok: true }));
      resolve();
    };
    child.once('error', (error) => finish(error.message));
    child.once('exit', (code, signal) => finish(code === 0 ? undefined : `exit code ${code ?? signal}`));
  });
  project.provide('assembly', assembly);
  return async () => {
    stop();
    await synth;
    rmSync(scratch, { recursive: true, force: true });
  };
}
