import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of the management API's local stand-in (infra/local/websocket-api.ts) that
 * holds each call `delayMs` before passing it on, as a round trip to API Gateway's would take,
 * and counts the calls it has in flight at once: on this machine a post costs only the CPU of
 * both ends, so one publisher that posts one at a time and one that posts many at once look
 * alike without it. Point `REALTIME_ENDPOINT` at its `endpoint`.
 */
export const managementProxy = async (target: string, options: { delayMs: number }) => {
  const to = new URL(target);
  const stats = { delayMs: options.delayMs, calls: 0, inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    stats.calls++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.on('close', () => stats.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const forward = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.writeHead(502).end());
        forward.end(Buffer.concat(chunks));
      }, stats.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`,
    stats,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};
