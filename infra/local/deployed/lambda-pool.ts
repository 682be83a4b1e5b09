import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DeployedFunction } from './assembly.ts';

/** Where a streamed answer goes: its prelude (status and headers), then its bytes. */
export interface StreamSink {
  prelude(prelude: unknown): void;
  /** Resolves once the chunk is written on (the function's next write waits for it). */
  chunk(bytes: Buffer): Promise<void> | void;
}

/** How an invocation ended: the handler's result, or a failure Lambda reports to API Gateway. */
export type Outcome = { ok: true; result: unknown } | { ok: false; reason: 'timeout' | 'error' | 'crash'; message: string };

interface Environment {
  worker: Worker;
  ready: Promise<void>;
}

const workerFile = join(import.meta.dirname, 'lambda-worker.ts');

/**
 * The execution environments of one function, as Lambda keeps them: each handles one invocation
 * at a time, a new one starts (cold) when all are busy, up to `maxConcurrency`; beyond that,
 * invocations wait. Each gets only the function's environment (from the template) plus what
 * Lambda's runtime sets, and a heap limit from its memory size. An environment whose invocation
 * passes the timeout, or that crashes, is ended and replaced on the next invocation.
 */
export class FunctionPool {
  private readonly idle: Environment[] = [];
  private readonly all = new Set<Environment>();
  private readonly waiting: ((environment: Environment) => void)[] = [];
  private closed = false;
  readonly fn: DeployedFunction;
  private readonly environment: Record<string, string>;
  private readonly maxConcurrency: number;

  private readonly hostModules: Record<string, string>;

  /**
   * `hostModules`: packages of the bundle's folder whose native build is Lambda's (linux-arm64) and
   * cannot load on this machine, each resolved from this project's node_modules instead, where
   * npm installed this machine's build (start.ts `hostModules`).
   */
  constructor(fn: DeployedFunction, environment: Record<string, string>, maxConcurrency = 4, hostModules: Record<string, string> = {}) {
    this.fn = fn;
    this.environment = environment;
    this.maxConcurrency = maxConcurrency;
    this.hostModules = hostModules;
  }

  private start(): Environment {
    const worker = new Worker(workerFile, {
      workerData: { codeDir: this.fn.codeDir, handler: this.fn.handler, hostModules: this.hostModules },
      env: this.environment,
      resourceLimits: { maxOldGenerationSizeMb: this.fn.memoryMb },
      stdout: false,
      stderr: false,
    });
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`Runtime exited with code ${code} during init`)));
    });
    const environment = { worker, ready };
    this.all.add(environment);
    return environment;
  }

  private acquire(): Promise<Environment> {
    const idle = this.idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.all.size < this.maxConcurrency) return Promise.resolve(this.start());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(environment: Environment, healthy: boolean): void {
    if (!healthy) {
      this.all.delete(environment);
      void environment.worker.terminate();
      const next = this.waiting.shift();
      if (next && !this.closed) next(this.start());
      return;
    }
    const next = this.waiting.shift();
    if (next) next(environment);
    else this.idle.push(environment);
  }

  /**
   * Invokes the function; with `stream`, as a function URL in RESPONSE_STREAM mode does: its
   * status and headers and each chunk go to `stream` as the function writes them, and the function
   * waits for each chunk to be taken.
   */
  async invoke(event: unknown, context: Record<string, unknown>, stream?: StreamSink): Promise<Outcome> {
    const environment = await this.acquire();
    const timeoutMs = this.fn.timeoutSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    const { worker } = environment;
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome, healthy: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.release(environment, healthy);
        resolve(outcome);
      };
      const onMessage = (message: {
        ok?: boolean;
        result?: unknown;
        error?: string;
        ready?: boolean;
        prelude?: unknown;
        chunk?: Uint8Array;
      }): void => {
        if (message.ready) return;
        if (message.prelude !== undefined) {
          stream?.prelude(message.prelude);
          return;
        }
        if (message.chunk !== undefined) {
          void Promise.resolve(stream?.chunk(Buffer.from(message.chunk))).then(() => worker.postMessage({ drained: true }));
          return;
        }
        finish(message.ok ? { ok: true, result: message.result } : { ok: false, reason: 'error', message: message.error ?? 'Error' }, true);
      };
      const onError = (error: Error): void => finish({ ok: false, reason: 'crash', message: `${error.name}: ${error.message}` }, false);
      const onExit = (code: number): void => finish({ ok: false, reason: 'crash', message: `Runtime exited with code ${code}` }, false);
      // The timeout counts the cold start too, as Lambda's init and invoke share the request's time.
      const timer = setTimeout(
        () => finish({ ok: false, reason: 'timeout', message: `Task timed out after ${this.fn.timeoutSeconds} seconds` }, false),
        timeoutMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      environment.ready.then(
        () => {
          if (!settled) worker.postMessage({ event, context, deadline, ...(stream ? { stream: true } : {}) });
        },
        (error: unknown) => finish({ ok: false, reason: 'crash', message: error instanceof Error ? error.message : String(error) }, false),
      );
    });
  }

  /** The heap each of its environments uses now, in bytes (0 for one starting or ended): what a bench samples (test/bench/scale.ts). */
  heapUsed(): Promise<number[]> {
    return Promise.all(
      [...this.all].map(({ worker }) =>
        worker.getHeapStatistics().then(
          (stats) => stats.used_heap_size,
          () => 0,
        ),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((environment) => environment.worker.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }
}
