import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { WebSocket } from 'ws';
import { esbuildOptions, realtimeClientFiles } from '#infra/cdk/bundling.ts';
import { createWebSocketApi, serveManagementApi } from '#infra/local/websocket-api.ts';
import { median, table } from './stats.ts';

/**
 * The greeter (functions/realtime/greet.ts) as the stack deploys it (docs/deployment.md,
 * "Realtime"): bundled with the stack's options, the management API's client copied beside the
 * bundle, run in a fresh Node process for each greeting of a connection of the WebSocket API's
 * local stand-in: a signed-in one, a refused one, and one that never opens (a client gone before
 * API Gateway opened it: the greeter tries until it gives up). Its wall and CPU time from the
 * bundle's import to its answer, and the process's peak memory. What Lambda would bill is
 * estimated from them: a function of M MB gets M / 1,769 of a vCPU, so its CPU work takes
 * 1,769 / M times as long as on one core here, and its waits as long.
 */
const runs = 10;
const memories = [128, 256, 512];

const measure = async (): Promise<string> => {
  const work = mkdtempSync(join(tmpdir(), 'bench-greeter-'));
  const bundle = join(work, 'index.mjs');
  const built = buildSync(esbuildOptions('functions/realtime/greet.ts', bundle));
  if (built.errors.length > 0) throw new Error('the greeter did not bundle');
  for (const { from, to } of realtimeClientFiles()) {
    mkdirSync(dirname(join(work, to)), { recursive: true });
    cpSync(from, join(work, to));
  }
  const opened: string[] = [];
  const api = createWebSocketApi({
    stage: 'bench',
    connect: async (event) => {
      opened.push(event.requestContext.connectionId);
      return { statusCode: 200 };
    },
    disconnect: async () => undefined,
  });
  const management = serveManagementApi(api.manage, { stage: 'bench' });
  await new Promise<void>((resolve) => management.listen(0, '127.0.0.1', resolve));
  const sockets = createServer((_req, res) => res.writeHead(404).end());
  sockets.on('upgrade', (req, socket, head) => api.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => sockets.listen(0, '127.0.0.1', resolve));
  const env = {
    PATH: process.env.PATH,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    LOG_LEVEL: 'silent',
    REALTIME_ENDPOINT: `http://127.0.0.1:${(management.address() as AddressInfo).port}/bench`,
  };
  const probe = [
    `const started = performance.now(); const cpu = process.cpuUsage();`,
    `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});`,
    `const { outcome } = await handler(JSON.parse(process.argv[1]));`,
    `const used = process.cpuUsage(cpu);`,
    `console.log(JSON.stringify({ outcome, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, rssMb: process.resourceUsage().maxRSS / 1024 }));`,
  ].join('\n');
  type Sample = { outcome: string; wallMs: number; cpuMs: number; rssMb: number };
  /** One greeting in a process of its own, while the connection is (or is not) open. */
  const greetOnce = async (kind: 'welcome' | 'unauthorized', open: boolean): Promise<Sample> => {
    let client: WebSocket | undefined;
    let connectionId = 'never-opened=';
    if (open) {
      const before = opened.length;
      client = new WebSocket(`ws://127.0.0.1:${(sockets.address() as AddressInfo).port}/`);
      await new Promise((resolve, reject) => client?.once('open', resolve).once('error', reject));
      connectionId = opened[before] ?? '';
    }
    const greeting = kind === 'welcome' ? { kind, connectionId, generation: 'v1' } : { kind, connectionId };
    // Its own process, as a cold Lambda environment: nothing of it is loaded yet.
    // Asynchronously: this process serves the management API it posts to.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe, JSON.stringify(greeting)], {
      env,
      encoding: 'utf8',
    });
    client?.close();
    return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Sample;
  };
  try {
    const rows: (string | number)[][] = [];
    const cases = [
      { name: 'a signed-in connection, open', kind: 'welcome', open: true },
      { name: 'refused credentials, open', kind: 'unauthorized', open: true },
      { name: 'a signed-in connection that never opens', kind: 'welcome', open: false },
      { name: 'refused credentials, never open', kind: 'unauthorized', open: false },
    ] as const;
    for (const c of cases) {
      const samples: Sample[] = [];
      for (let i = 0; i < (c.open ? runs : 3); i++) samples.push(await greetOnce(c.kind, c.open));
      const wall = median(samples.map((each) => each.wallMs));
      const cpu = median(samples.map((each) => each.cpuMs));
      const estimates = memories.map((mb) => {
        const ms = wall - cpu + (cpu * 1769) / mb;
        return `${Math.round(ms)} ms, ${((mb / 1024) * (ms / 1000)).toFixed(3)}`;
      });
      rows.push([
        c.name,
        [...new Set(samples.map((each) => each.outcome))].join(', '),
        wall.toFixed(0),
        cpu.toFixed(0),
        Math.max(...samples.map((each) => each.rssMb)).toFixed(0),
        ...estimates,
      ]);
    }
    return [
      `The greeter as deployed (its bundle, the management API's client beside it), one greeting a fresh Node process, against the WebSocket API's local stand-in; medians of ${runs} (3 for a connection that never opens). Wall and CPU time from the bundle's import to the answer; Lambda's time and GB-s estimated at each memory size (its CPU work ${'×'} 1,769 / MB, its waits as they are).`,
      '',
      table(['greeting', 'outcome', 'wall ms', 'CPU ms', 'peak RSS MB', ...memories.map((mb) => `≈ at ${mb} MB (ms, GB-s)`)], rows),
    ].join('\n');
  } finally {
    await api.close();
    await Promise.all([management, sockets].map((each) => new Promise((resolve) => each.close(resolve))));
    rmSync(work, { recursive: true, force: true });
  }
};

if (import.meta.main) process.stdout.write(await measure());

export const greeterSection = { name: 'greeter', run: measure };
