import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileViewerRequest, headersOf, targetOf, toCfRequest } from '#infra/local/deployed/edge-functions.ts';
import { listen, pipeToOrigin } from '#infra/local/deployed/start.ts';
import { realtimeFunctionCode, viewerHostFunctionCode } from '#infra/web-app.ts';

/** A viewer's request as the local edge's server receives it. */
const viewerRequest = (method: string, url: string, headers: Record<string, string>) =>
  ({ method, url, headers, socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

describe('the distribution’s viewer-request functions, run as CloudFront’s runtime 2.0 runs them', () => {
  it('hands the function CloudFront’s event: lower-cased headers and the cookies apart, as { name: { value } }', async () => {
    const run = compileViewerRequest(viewerHostFunctionCode, 'ViewerHost');
    const request = toCfRequest(
      viewerRequest('GET', '/share/abc?key=1&key=2', { host: 'photos.example', cookie: 'a=1; immich_access_token=t', 'x-immich-x': 'y' }),
    );
    expect(request).toEqual({
      method: 'GET',
      uri: '/share/abc',
      querystring: { key: { value: '1', multiValue: [{ value: '1' }, { value: '2' }] } },
      headers: { host: { value: 'photos.example' }, 'x-immich-x': { value: 'y' } },
      cookies: { a: { value: '1' }, immich_access_token: { value: 't' } },
    });
    const decision = await run(request, '127.0.0.1');
    if (!('request' in decision)) throw new Error('the function answered');
    // The template's function adds the viewer's host; nothing selected another origin.
    expect(decision.origin).toBeUndefined();
    expect(headersOf(decision.request)).toEqual({
      host: 'photos.example',
      'x-viewer-host': 'photos.example',
      'x-immich-x': 'y',
      cookie: 'a=1; immich_access_token=t',
    });
    expect(targetOf(decision.request)).toBe('/share/abc?key=1&key=2');
  });

  it('passes on what the function changed (the socket’s function rewrites the uri to the stage’s)', async () => {
    const run = compileViewerRequest(realtimeFunctionCode('live'), 'RealtimePath');
    const decision = await run(toCfRequest(viewerRequest('GET', '/api/socket.io/?EIO=4&transport=websocket', {})), '127.0.0.1');
    expect('request' in decision && targetOf(decision.request)).toBe('/live?EIO=4&transport=websocket');
  });

  it('resolves `import cf from ’cloudfront’`: the origin it selects is recorded per request; an answer of its own is returned', async () => {
    const code = `import cf from 'cloudfront';
function handler(event) {
  var length = event.request.headers['content-length'];
  if (event.request.method === 'DELETE') return { statusCode: 405, statusDescription: 'No', body: { data: 'no', encoding: 'text' } };
  if (event.request.method === 'POST' && (!length || Number(length.value) > 100)) cf.selectRequestOriginById('ingress');
  return event.request;
}
`;
    const run = compileViewerRequest(code, 'Routing');
    const post = (headers: Record<string, string>) => run(toCfRequest(viewerRequest('POST', '/api/assets', headers)), '127.0.0.1');
    expect(await post({ 'content-length': '101' })).toMatchObject({ origin: 'ingress' });
    expect(await post({ 'content-length': '100' })).toMatchObject({ origin: undefined });
    expect(await post({})).toMatchObject({ origin: 'ingress' });
    expect(await run(toCfRequest(viewerRequest('DELETE', '/api/assets', {})), '127.0.0.1')).toEqual({
      response: { statusCode: 405, statusDescription: 'No', body: { data: 'no', encoding: 'text' } },
    });
    // Only the helper module is served: another import fails loudly rather than running half.
    expect(() => compileViewerRequest(`import fs from 'fs';\nfunction handler(e) { return e.request; }`, 'Bad')).toThrow(
      'Bad: module fs is not served locally',
    );
  });
});

describe('the edge’s pipe to an origin (the ingress’s)', () => {
  let origin: Server;
  let edge: Server;
  const received: { headers: IncomingMessage['headers']; firstChunk: number }[] = [];
  beforeAll(async () => {
    // An origin that answers as soon as the first bytes of the body arrive, with what it got so far.
    origin = createServer((req, res) => {
      req.once('data', (chunk: Buffer) => {
        received.push({ headers: req.headers, firstChunk: chunk.length });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ firstChunk: chunk.length }));
      });
    });
    const originUrl = `http://127.0.0.1:${await listen(origin)}`;
    edge = createServer((req, res) => pipeToOrigin(originUrl, req, res, req.url ?? '/', { ...req.headers, 'x-origin-verify': 'secret' }));
    await listen(edge);
  });
  afterAll(() => {
    for (const server of [edge, origin]) server.closeAllConnections();
    edge.close();
    origin.close();
  });

  it('streams the body as it comes (never buffered, no size limit) with the origin’s header, and answers before the body ends', async () => {
    const { port } = edge.address() as AddressInfo;
    // A 1 GB body announced; only 64 KiB sent, and the rest held back until the answer has come.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const upload = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/assets', headers: { 'content-length': String(1024 ** 3) } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => {
            upload.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      upload.on('error', reject);
      upload.write(Buffer.alloc(64 * 1024));
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body).firstChunk).toBeGreaterThan(0);
    expect(received[0]?.headers).toMatchObject({ 'x-origin-verify': 'secret', 'content-length': String(1024 ** 3) });
  });
});
