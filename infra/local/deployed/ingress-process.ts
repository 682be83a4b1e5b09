/**
 * The large uploads' ingress as the template defines it (infra/cdk/ingress.ts), run on this
 * machine: the bundle the instance fetches, started as its own Node process the way its systemd
 * unit starts it (a t4g.nano's heap budget), with the environment file its user data writes, the
 * AWS endpoints pointed at the IAM-checking gateway, and the access key that stands for its
 * instance profile's role there. Ready once its `GET /health` answers 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../dynamodb-local.ts';
import type { DeployedIngress } from './assembly.ts';

/** The instance's memory (t4g.nano: 0.5 GiB) leaves Node this heap; the unit's MemoryMax bounds the rest. */
export const ingressHeapMb = 256;

export interface IngressProcess {
  pid: number;
  /** `http://127.0.0.1:<port>`: what the distribution's VPC origin reaches. */
  url: string;
  close(): Promise<void>;
}

export interface StartIngressOptions {
  ingress: DeployedIngress;
  /** The variables the local form sets over the template's (endpoints, credentials, LOG_LEVEL). */
  overrides: Record<string, string>;
  /** Told when it ends on its own (a crash), with its last output. */
  onExit?: (message: string) => void;
  /** How long to wait for its health check. */
  startTimeoutMs?: number;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

export const startIngressProcess = async (options: StartIngressOptions): Promise<IngressProcess> => {
  const entry = join(options.ingress.codeDir, 'main.mjs');
  if (!existsSync(entry)) throw new Error(`The ingress bundle has no main.mjs: ${options.ingress.codeDir}`);
  const port = await freePort();
  const environment: Record<string, string> = {
    ...options.ingress.environment,
    ...options.overrides,
    INGRESS_HOST: '127.0.0.1',
    INGRESS_PORT: String(port),
  };
  const child = spawn(process.execPath, [`--max-old-space-size=${ingressHeapMb}`, entry], {
    cwd: options.ingress.codeDir,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its log lines go where the functions' go (this process's output); the last ones explain a failed start.
  let tail = '';
  const keep = (chunk: Buffer, to: NodeJS.WriteStream): void => {
    tail = (tail + chunk.toString()).slice(-4000);
    to.write(chunk);
  };
  child.stdout?.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
  let closing = false;
  child.once('exit', (code, signal) => {
    if (!closing) options.onExit?.(`the ingress ended (${code ?? signal}): ${tail}`);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`The ingress did not start (${child.exitCode ?? child.signalCode}): ${tail}`);
    // As CloudFront would reach it: with the origin's header (the check may not need it).
    const verify = environment.ORIGIN_VERIFY;
    const healthy = await fetch(`${url}/health`, verify ? { headers: { 'x-origin-verify': verify } } : {}).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The ingress did not answer /health: ${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid ?? 0,
    url,
    close: async () => {
      closing = true;
      // systemd's stop: SIGTERM, then SIGKILL if it lingers.
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    },
  };
};
