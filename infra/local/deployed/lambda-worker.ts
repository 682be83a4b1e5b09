/**
 * One Lambda execution environment: a worker thread that imports one function's bundle from the
 * cloud assembly (with only the environment Lambda would give it) and runs one invocation at a
 * time. Its host (lambda-pool.ts) ends it when the function's timeout passes, as Lambda does.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

interface Setup {
  codeDir: string;
  handler: string;
  /** A package name → the folder whose node_modules resolves it instead of the bundle's (lambda-pool.ts). */
  hostModules?: Record<string, string>;
}

interface Invocation {
  event: unknown;
  context: Record<string, unknown>;
  deadline: number;
  /** Through a function URL in RESPONSE_STREAM mode: the handler writes to a response stream. */
  stream?: boolean;
}

// A streaming handler takes the response stream second and the context third.
type Handler = (event: unknown, contextOrStream: unknown, context?: unknown) => Promise<unknown>;
type StreamingHandler = (event: unknown, stream: Writable, context: unknown) => Promise<unknown>;

// What Lambda's Node.js runtime gives a function for response streaming (`awslambda`): a handler
// marked by streamifyResponse gets a stream; HttpResponseStream.from sends the status and headers
// first. Here the stream's bytes go to the host a chunk at a time, each written before the next
// is taken (the host acknowledges it): a slow client holds the function back, as it does deployed.
const streaming = Symbol('streaming');
let drained: (() => void) | undefined;
Object.assign(globalThis, {
  awslambda: {
    streamifyResponse: (fn: StreamingHandler) => Object.assign(fn, { [streaming]: true }),
    HttpResponseStream: {
      from: (stream: Writable, prelude: unknown) => {
        parentPort?.postMessage({ prelude });
        return stream;
      },
    },
  },
});
const responseStream = (): Writable =>
  new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      drained = () => callback();
      parentPort?.postMessage({ chunk });
    },
  });

const { codeDir, handler, hostModules = {} } = workerData as Setup;
// A package whose native build in the bundle is Lambda's (onnxruntime-node's linux-arm64 binding),
// on a machine of another architecture: resolved as if imported from the project, whose
// node_modules has this machine's build. Everything else resolves from the bundle's folder.
if (Object.keys(hostModules).length > 0)
  registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const name = Object.keys(hostModules).find((each) => specifier === each || specifier.startsWith(`${each}/`));
      const from = name ? hostModules[name] : undefined;
      return from
        ? nextResolve(specifier, { ...context, parentURL: pathToFileURL(join(from, 'package.json')).href })
        : nextResolve(specifier, context);
    },
  });
const dot = handler.lastIndexOf('.');
const file = ['.mjs', '.js', '.cjs'].map((extension) => join(codeDir, `${handler.slice(0, dot)}${extension}`)).find(existsSync);
if (!file) throw new Error(`Runtime.ImportModuleError: no module for handler ${handler} in ${codeDir}`);
const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
const run = module[handler.slice(dot + 1)] as Handler | undefined;
if (typeof run !== 'function') throw new Error(`Runtime.HandlerNotFound: ${handler} is undefined or not exported`);

parentPort?.on('message', async (message: Invocation | { drained: true }) => {
  if ('drained' in message) {
    drained?.();
    return;
  }
  const { event, context, deadline, stream } = message;
  try {
    const lambdaContext = { ...context, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
    if (stream) {
      if (!(streaming in run)) throw new Error('Runtime.InvalidStreamingOperation: the handler is not streamifyResponse');
      const out = responseStream();
      await run(event, out, lambdaContext);
      if (!out.writableEnded) out.end();
      parentPort?.postMessage({ ok: true, result: null });
      return;
    }
    const result = await run(event, lambdaContext);
    parentPort?.postMessage({ ok: true, result });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
parentPort?.postMessage({ ready: true });
