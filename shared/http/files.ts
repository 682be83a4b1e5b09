import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { attachment, type Delivery, inline, type ServedFile } from '../model/file.ts';
import { type LambdaResult, RawResponse } from './response.ts';

const headersOf = (file: ServedFile): Record<string, string> => ({
  'content-type': file.contentType,
  'cache-control': file.cacheControl,
  ...(file.downloadName ? { 'content-disposition': attachment(file.downloadName) } : {}),
  ...(file.inlineName ? { 'content-disposition': inline(file.inlineName) } : {}),
});

/**
 * A redirect to a sibling route of the request's path, as Immich's `res.redirect('original?…')`:
 * the query kept, with `changes` set (undefined: removed).
 */
export const redirectTo = (event: APIGatewayProxyEventV2, route: string, changes: Record<string, string | undefined>): RawResponse => {
  const query = new URLSearchParams(event.rawQueryString ?? '');
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) query.delete(key);
    else query.set(key, value);
  }
  return new RawResponse({ statusCode: 302, headers: { location: `${route}?${query.toString()}` }, body: '' });
};

/**
 * A HEAD request (the routes with `head` in infra/routes.ts): its answer is the GET's headers, and
 * where the GET would redirect to a signed URL, those headers themselves (shared/services/file.service.ts, `deliver`).
 */
export const isHead = (event: APIGatewayProxyEventV2): boolean => event.requestContext.http.method === 'HEAD';

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range; several are answered with the whole file, as Express does). */
const rangeOf = (header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined => {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
};

/**
 * The answer for a file, as Immich's sendFile (Express) gives it: from S3, a 302 to a short-lived
 * URL (the bytes never pass through Lambda, and S3 serves ranges for video seeking; the redirect
 * itself is not cached, since the URL expires); from the local folder, the bytes with an ETag
 * (`If-None-Match` → 304) and `Range` → 206.
 */
export const fileResponse = (file: ServedFile, delivery: Delivery, event: APIGatewayProxyEventV2): RawResponse => {
  if ('found' in delivery) return new RawResponse({ statusCode: 200, headers: headersOf(file), body: '' });
  if ('url' in delivery) {
    return new RawResponse({ statusCode: 302, headers: { location: delivery.url, 'cache-control': 'private, no-store' }, body: '' });
  }
  const { bytes } = delivery;
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  const headers = { ...headersOf(file), etag, 'accept-ranges': 'bytes' };
  const ifNoneMatch = event.headers['if-none-match'];
  if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    return new RawResponse({ statusCode: 304, headers, body: '' });
  }
  const range = rangeOf(event.headers.range, bytes.length);
  let result: LambdaResult;
  if (range === 'unsatisfiable') {
    result = { statusCode: 416, headers: { ...headers, 'content-range': `bytes */${bytes.length}` }, body: '' };
  } else if (range) {
    const part = bytes.subarray(range.start, range.end + 1);
    result = {
      statusCode: 206,
      headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` },
      body: part.toString('base64'),
      isBase64Encoded: true,
    };
  } else {
    result = { statusCode: 200, headers, body: bytes.toString('base64'), isBase64Encoded: true };
  }
  return new RawResponse(result);
};
