/**
 * A recording proxy in front of s3rver for the ingress's S3 tests: it forwards every request as
 * sent (streamed, the signature's host header kept), notes what was asked (method, path, query,
 * tagging header), and answers AbortMultipartUpload itself, which s3rver lacks
 * (infra/local/deployed/s3-multipart.ts, as the deployed form's gateway does).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { multipartAnswer } from '#infra/local/deployed/s3-multipart.ts';

export interface S3Call {
  method: string;
  path: string;
  query: URLSearchParams;
  tagging: string | undefined;
}

export const startS3Proxy = async (target: {
  port: number;
  directory: string;
}): Promise<{ server: Server; port: number; calls: S3Call[] }> => {
  const calls: S3Call[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const tagging = req.headers['x-amz-tagging'];
    calls.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      tagging: Array.isArray(tagging) ? tagging[0] : tagging,
    });
    if (req.method === 'DELETE' && url.searchParams.has('uploadId')) {
      void multipartAnswer(target.directory, 'DELETE', url, Buffer.alloc(0), req.headers).then((answer) => {
        res.writeHead(answer?.status ?? 204, { 'content-type': 'application/xml' });
        res.end(answer?.body ?? '');
      });
      req.resume();
      return;
    }
    const forward = httpRequest(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, calls };
};
