import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, UrlRefused, UrlUnreadable } from '#shared/core/safe-fetch.ts';

/** A local server whose routes each test sets, recording every request it was sent. */
const serve = async (
  route: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ server: Server; base: string; port: number; seen: string[] }> => {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}`, port, seen };
};

const json = (response: ServerResponse, value: unknown) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

const options = { timeoutMs: 2_000, maxBytes: 1_000, maxRedirects: 3 };

let style: Awaited<ReturnType<typeof serve>>;
let secret: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  // The place a redirect must never reach: another service on this machine's loopback.
  secret = await serve((_request, response) => json(response, { secret: 'credentials' }));
  style = await serve((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/style.json') return json(response, { version: 8 });
    if (url.pathname === '/redirect' && to) {
      response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to });
      return response.end();
    }
    if (url.pathname === '/loop') {
      response.writeHead(302, { location: '/loop' });
      return response.end();
    }
    if (url.pathname === '/large') {
      // No content-length: the size is counted as it comes.
      response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      response.write(`"${'x'.repeat(800)}`);
      response.end(`${'x'.repeat(800)}"`);
      return;
    }
    if (url.pathname === '/declared-large') {
      response.writeHead(200, { 'content-length': '5000' });
      response.end('x'.repeat(5000));
      return;
    }
    if (url.pathname === '/silent') return; // never answers
    if (url.pathname === '/stalls') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"version":');
      return; // the body never ends
    }
    response.writeHead(404);
    response.end();
  });
});
afterAll(() => {
  style.server.closeAllConnections();
  style.server.close();
  secret.server.close();
});
afterEach(() => {
  delete process.env.AWS_LAMBDA_RUNTIME_API;
});

const refusal = async (url: string): Promise<unknown> =>
  safeFetch(url, options).then(
    () => 'read',
    (error: unknown) => error,
  );

describe('safeFetch (issue 49, Low 7: the map style URL)', () => {
  it('reads the URL as named, a loopback one too off Lambda (npm start, a tile server on the admin’s machine)', async () => {
    const answer = await safeFetch(`${style.base}/style.json`, options);
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(JSON.parse(answer.body.toString())).toEqual({ version: 8 });
    expect((await safeFetch(`${style.base}/missing`, options)).status).toBe(404);
    // A data: URL reaches no host.
    const inline = await safeFetch(`data:application/json,${encodeURIComponent('{"version":8}')}`, options);
    expect(JSON.parse(inline.body.toString())).toEqual({ version: 8 });
  });

  it('reads only http and https', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/style.json',
      'gopher://127.0.0.1:6379/_INFO',
      'not a url',
      'javascript:alert(1)',
    ]) {
      const error = await refusal(url);
      expect(error, url).toBeInstanceOf(UrlRefused);
    }
  });

  it('never follows a redirect to loopback, a private range, link-local (metadata) or a non-http scheme; the target is never sent a request', async () => {
    const targets = [
      `${secret.base}/`,
      `http://localhost:${secret.port}/`,
      `http://[::1]:${secret.port}/`,
      `http://[::ffff:127.0.0.1]:${secret.port}/`,
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.5.4/',
      'http://[fd00::1]/',
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://[fe80::1]/',
      `http://0.0.0.0:${secret.port}/`,
      // 127.0.0.1 written as one number: the URL parser reads it as 127.0.0.1.
      `http://2130706433:${secret.port}/`,
      'file:///etc/passwd',
    ];
    for (const to of targets)
      for (const status of [301, 302, 303, 307, 308]) {
        const error = await refusal(`${style.base}/redirect?status=${status}&to=${encodeURIComponent(to)}`);
        expect(error, `${status} ${to}`).toBeInstanceOf(UrlRefused);
      }
    expect(secret.seen).toEqual([]);
  });

  it('follows a redirect within the origin named; at most maxRedirects', async () => {
    const answer = await safeFetch(`${style.base}/redirect?to=${encodeURIComponent('/style.json')}`, options);
    expect(answer).toMatchObject({ status: 200, url: `${style.base}/style.json` });
    const error = await refusal(`${style.base}/loop`);
    expect(error).toBeInstanceOf(UrlRefused);
    expect((error as Error).message).toBe('more than 3 redirects');
  });

  it('refuses an answer larger than maxBytes, declared or counted', async () => {
    for (const path of ['/large', '/declared-large']) {
      const error = await refusal(`${style.base}${path}`);
      expect(error, path).toBeInstanceOf(UrlRefused);
      expect((error as Error).message, path).toBe('the answer is larger than 1000 bytes');
    }
  });

  it('gives up on a server that does not answer, or stops halfway, within timeoutMs', async () => {
    for (const path of ['/silent', '/stalls']) {
      const error = await safeFetch(`${style.base}${path}`, { ...options, timeoutMs: 300 }).then(
        () => 'read',
        (failure: unknown) => failure,
      );
      expect(error, path).toBeInstanceOf(UrlUnreadable);
    }
  });

  it('on Lambda, never the runtime API nor loopback, however written; link-local never', async () => {
    process.env.AWS_LAMBDA_RUNTIME_API = `127.0.0.1:${secret.port}`;
    for (const url of [
      `${secret.base}/2018-06-01/runtime/invocation/next`,
      `http://localhost:${secret.port}/2018-06-01/runtime/invocation/next`,
      `http://[::ffff:7f00:1]:${secret.port}/`,
      `http://127.1:${secret.port}/`,
      `http://0.0.0.0:${secret.port}/`,
      `${style.base}/style.json`,
    ]) {
      const error = await refusal(url);
      expect(error, url).toBeInstanceOf(UrlRefused);
    }
    process.env.AWS_LAMBDA_RUNTIME_API = `localhost:${secret.port}`;
    expect(await refusal(`http://LOCALHOST:${secret.port}/`)).toBeInstanceOf(UrlRefused);
    delete process.env.AWS_LAMBDA_RUNTIME_API;
    expect(await refusal('http://169.254.169.254/latest/meta-data/')).toBeInstanceOf(UrlRefused);
    expect(await refusal('http://[fe80::a9fe:a9fe]/')).toBeInstanceOf(UrlRefused);
    expect(secret.seen).toEqual([]);
  });
});
