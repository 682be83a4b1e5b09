import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { hangGuard } from '../support/timeouts.ts';

const root = join(import.meta.dirname, '..', '..');

/**
 * `cdk synth` once for the `deployed` project, exactly as `npm run deploy` synthesizes (every
 * function bundled), offline: no credentials and no network. The tests serve what it wrote.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // An assembly synthesized already (`CDK_OUT=<dir>`, as `npm run start:deployed` takes it): served as it is, and kept.
  if (process.env.CDK_OUT) {
    project.provide('assemblyDir', process.env.CDK_OUT);
    return () => undefined;
  }
  const out = mkdtempSync(join(tmpdir(), 'cdk-out-'));
  await promisify(execFile)(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', out], {
    cwd: root,
    // No web build (`WEB_DIR=`): the assembly is the same on every machine, with or without one.
    env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_VERSION_CHECK: '1', WEB_DIR: '' },
    timeout: hangGuard.process,
  });
  project.provide('assemblyDir', out);
  return () => rmSync(out, { recursive: true, force: true });
}
