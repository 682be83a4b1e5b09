/**
 * One Lambda execution environment: a worker thread that imports one function's bundle from the
 * cloud assembly (with only the environment Lambda would give it) and runs one invocation at a
 * time. Its host (lambda-pool.ts) ends it when the function's timeout passes, as Lambda does.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

interface Setup {
  codeDir: string;
  handler: string;
}

interface Invocation {
  event: unknown;
  context: Record<string, unknown>;
  deadline: number;
}

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const { codeDir, handler } = workerData as Setup;
const dot = handler.lastIndexOf('.');
const file = ['.mjs', '.js', '.cjs'].map((extension) => join(codeDir, `${handler.slice(0, dot)}${extension}`)).find(existsSync);
if (!file) throw new Error(`Runtime.ImportModuleError: no module for handler ${handler} in ${codeDir}`);
const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
const run = module[handler.slice(dot + 1)] as Handler | undefined;
if (typeof run !== 'function') throw new Error(`Runtime.HandlerNotFound: ${handler} is undefined or not exported`);

parentPort?.on('message', async ({ event, context, deadline }: Invocation) => {
  try {
    const result = await run(event, { ...context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) });
    parentPort?.postMessage({ ok: true, result });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
parentPort?.postMessage({ ready: true });
