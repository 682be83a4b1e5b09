import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '#infra/local/dynamodb-local.ts';
import { webBuildDir } from '#infra/web-app.ts';
import type { Section } from './run.ts';

/**
 * `npm run bench -- build`: how long the build takes and how soon the deployed form answers
 * (docs/benchmarks.md, "Build and start"): `cdk synth` as the tests' deployed project runs it
 * (every function bundled, the assets staged, cdk-nag), then `npm run start:deployed` from nothing
 * (it synthesizes into cdk.out first), again (it serves that cdk.out: nothing changed) and on the
 * first assembly (`CDK_OUT`), each to its first answer.
 * A machine's load changes these more than anything in the code, so each row notes it. PORT
 * (default: a free one) is where start:deployed listens.
 */
const root = join(import.meta.dirname, '..', '..');
const load = (): string => loadavg()[0]?.toFixed(1) ?? '?';
const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/**
 * The CPU seconds (user and system) of this process's children that have ended and been waited
 * for, with theirs (Linux's /proc/self/stat, in clock ticks of 1/100 s): what a step costs
 * whatever else the machine is doing, where its wall time depends on the load.
 */
const childCpuSeconds = (): number | undefined => {
  if (!existsSync('/proc/self/stat')) return undefined;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command's closing parenthesis: state is field 3, cutime 16 and cstime 17 (proc(5)).
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

interface Row {
  what: string;
  ms: number;
  cpu: number | undefined;
  loadBefore: string;
  loadAfter: string;
}

const timed = async (what: string, step: () => Promise<unknown>): Promise<Row> => {
  const loadBefore = load();
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  await step();
  const cpuAfter = childCpuSeconds();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { what, ms: performance.now() - started, cpu, loadBefore, loadAfter: load() };
};

/** Whether any process of the group `pid` leads is still running. */
const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `npm run start:deployed` until GET /api/server-info/ping answers 200, then stopped (its whole process group). */
const startDeployedUntilPing = async (env: NodeJS.ProcessEnv): Promise<void> => {
  const port = process.env.PORT ? Number(process.env.PORT) : await freePort();
  const scratch = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), DATA_DIR: join(scratch, 'data'), TABLE_NAME: 'immich' };
  delete childEnv.AWS_ENDPOINT_URL_DYNAMODB;
  // What `npm run start:deployed` runs, without npm between: its CPU time is counted when it ends.
  const child = spawn(process.execPath, [join(root, 'infra', 'local', 'main.ts'), '--deployed'], {
    cwd: root,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('start:deployed did not start');
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`start:deployed exited: ${errors}`);
      const answered = await fetch(`http://127.0.0.1:${port}/api/server-info/ping`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    process.kill(-pid, 'SIGTERM');
    await exited;
    // Every process it started has ended (the server, DynamoDB Local), so the next start finds the port free.
    while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(scratch, { recursive: true, force: true });
  }
};

export const buildSection: Section = {
  name: 'build',
  run: async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'bench-build-'));
    const assembly = join(scratch, 'cdk.out');
    const rows: Row[] = [];
    try {
      rows.push(
        await timed('`cdk synth` (offline, no web build), as the tests’ deployed project runs it', () =>
          promisify(execFile)(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', assembly], {
            cwd: root,
            env: {
              ...process.env,
              AWS_ACCESS_KEY_ID: '',
              AWS_SECRET_ACCESS_KEY: '',
              AWS_PROFILE: '',
              CDK_DISABLE_VERSION_CHECK: '1',
              WEB_DIR: '',
            },
          }),
        ),
      );
      // From nothing: no cdk.out, so it synthesizes first, as on a fresh clone.
      rmSync(join(root, 'cdk.out'), { recursive: true, force: true });
      rows.push(
        await timed('`npm run start:deployed` on a fresh clone (synthesizes into cdk.out), to its first answer', () =>
          startDeployedUntilPing({}),
        ),
      );
      rows.push(
        await timed('`npm run start:deployed` again (nothing changed: cdk.out served as synthesized), to its first answer', () =>
          startDeployedUntilPing({}),
        ),
      );
      rows.push(
        await timed('`npm run start:deployed` with `CDK_OUT` (the assembly above), to its first answer', () =>
          startDeployedUntilPing({ CDK_OUT: assembly }),
        ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return [
      `${cpus().length} cores; the 1-minute load average before and after each step (${cpus().length} is a fully busy machine). CPU seconds: user and system time of the step's processes, which the load does not change (start:deployed's include its run until stopped).`,
      existsSync(join(root, webBuildDir, 'index.html')) ? 'A web build was present (start:deployed bundles it).' : 'No web build present.',
      '',
      '| step | seconds | CPU seconds | load before → after |',
      '| --- | --- | --- | --- |',
      ...rows.map(
        (row) =>
          `| ${row.what} | ${seconds(row.ms)} | ${row.cpu === undefined ? '–' : row.cpu.toFixed(1)} | ${row.loadBefore} → ${row.loadAfter} |`,
      ),
    ].join('\n');
  },
};
