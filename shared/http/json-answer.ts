/**
 * A JSON answer that may be several MB (the bulk metadata upsert echoes every item it wrote: the
 * iOS app sends 20,000 a request). Lambda returns at most 6 MB, the body escaped inside its JSON
 * envelope, so a large answer goes out gzip-compressed (about a quarter of its size) to a client that
 * accepts gzip: the apps and fetch ask for it, and a request without Accept-Encoding accepts any
 * coding (RFC 9110, 12.5.3), as one that came through CloudFront can arrive. A client that
 * refuses gzip gets a 413 before anything is done when the answer could not fit (docs/api.md,
 * "Asset metadata").
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { TooLarge } from '../core/errors.ts';
import { RawResponse } from './response.ts';

/** Smaller answers go out as they are: compressing them saves little. */
const compressAboveBytes = 64 * 1024;
/** Lambda's largest response (6,291,556 bytes), less room for the envelope and headers. */
const maxPlainBytes = 6_291_556 - 16 * 1024;

const acceptEncoding = (event: APIGatewayProxyEventV2): string | undefined =>
  Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];

/** Whether the client takes a gzip answer: it names `gzip` (or `*`) without `q=0`, or names no coding at all. */
const acceptsGzip = (event: APIGatewayProxyEventV2): boolean => {
  const header = acceptEncoding(event);
  if (header === undefined) return true;
  return header.split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((each) => each.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return ['gzip', 'x-gzip', '*'].includes(coding) && (q === undefined || Number(q.slice(2)) > 0);
  });
};

/** What a text costs inside Lambda's JSON result: escaped as a JSON string. */
const escapedBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text));

/**
 * For a client that refuses gzip: a 413 before anything is done when the answer, as `predicted`
 * gives it, would be larger than Lambda can return uncompressed.
 */
export const requireAnswerFits = (event: APIGatewayProxyEventV2, predicted: () => unknown): void => {
  if (acceptsGzip(event)) return;
  if (escapedBytes(JSON.stringify(predicted())) > maxPlainBytes)
    throw new TooLarge('The answer would be larger than 6 MB: ask for it with Accept-Encoding: gzip, or send fewer items');
};

/** `body` as JSON (200), gzip-compressed when it is large and the client accepts gzip. */
export const jsonAnswer = async <T>(event: APIGatewayProxyEventV2, body: T): Promise<RawResponse> => {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', vary: 'accept-encoding' };
  if (Buffer.byteLength(text) <= compressAboveBytes || !acceptsGzip(event))
    return new RawResponse({ statusCode: 200, headers, body: text });
  // Loaded only here: most answers never need it.
  const { gzipSync } = await import('node:zlib');
  return new RawResponse({
    statusCode: 200,
    headers: { ...headers, 'content-encoding': 'gzip' },
    body: gzipSync(text, { level: 6 }).toString('base64'),
    isBase64Encoded: true,
  });
};
