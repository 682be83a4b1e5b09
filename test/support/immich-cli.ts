import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hangGuard } from './timeouts.ts';

const run = promisify(execFile);

/** Today's `immich` binary: @immich/cli 3.2.2, installed as @immich/cli-v3. */
export const immichCliBin = join(import.meta.dirname, '..', '..', 'node_modules', '@immich', 'cli-v3', 'dist', 'index.js');

/**
 * Runs today's `immich` CLI with its own config folder (where `login` keeps the server and key),
 * under the child-process hang guard; rejects when it exits non-zero, with its output.
 */
export const immichCli = (configDir: string, ...args: string[]) =>
  run(process.execPath, [immichCliBin, ...args], {
    env: { ...process.env, IMMICH_CONFIG_DIR: configDir, NO_COLOR: '1' },
    timeout: hangGuard.process,
  });
