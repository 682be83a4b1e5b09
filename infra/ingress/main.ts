/**
 * The ingress process (docs/large-uploads.md): reads the upload functions' environment plus its
 * own (shared/core/env.ts), listens on INGRESS_HOST:INGRESS_PORT, beats its heartbeat, ships its
 * log lines to CloudWatch Logs when LOG_GROUP is set, and on SIGTERM stops accepting, lets the
 * uploads running finish for up to 30 s, then abandons the rest (each cleans up after itself).
 */
import { format } from 'node:util';
import * as env from '#shared/core/env.ts';
import { log } from '#shared/core/log.ts';
import { startHeartbeat } from './health.ts';
import { LogShipper } from './log-shipper.ts';
import { createIngress } from './server.ts';

const drainMs = 30_000;
/** After the drain, what the abandoned uploads get to abort their multipart uploads before connections are cut. */
const cleanupMs = 5_000;

const group = env.logGroup();
const shipper = group ? new LogShipper(group) : undefined;
if (shipper) {
  // Every line the process logs (shared/core/log.ts writes through console) also goes to CloudWatch.
  for (const method of ['log', 'error', 'warn', 'info'] as const) {
    const write = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      write(...args);
      shipper.push(format(...args));
    };
  }
  shipper.start();
}

const stopping = new AbortController();
const server = createIngress({ signal: stopping.signal });
const stopHeartbeat = startHeartbeat('/');
const port = env.ingressPort();
const host = env.ingressHost();
server.listen(port, host, () => log.info('ingress listening', { host, port }));

const stop = async (signal: string): Promise<void> => {
  log.info('ingress stopping', { signal });
  stopHeartbeat();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const abandon = setTimeout(() => {
    stopping.abort();
    setTimeout(() => server.closeAllConnections(), cleanupMs).unref();
  }, drainMs);
  await closed;
  clearTimeout(abandon);
  log.info('ingress stopped');
  shipper?.stop();
  await shipper?.flush().catch(() => undefined);
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
