import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * What a handler may return when a bare JSON body is not enough: another status, extra headers,
 * cookies (API Gateway HTTP API writes each entry of `cookies` as its own Set-Cookie header).
 */
export class HttpResponse<T> {
  readonly body: T;
  readonly statusCode: number | undefined;
  readonly headers: Record<string, string>;
  readonly cookies: string[];

  constructor(body: T, options: { status?: number; headers?: Record<string, string>; cookies?: string[] } = {}) {
    this.body = body;
    this.statusCode = options.status;
    this.headers = options.headers ?? {};
    this.cookies = options.cookies ?? [];
  }
}

export type LambdaResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

export const jsonResult = (statusCode: number, body: unknown, headers: Record<string, string> = {}): LambdaResult => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: body === undefined ? '' : JSON.stringify(body),
});

/**
 * A file as the body (a thumbnail, a preview): sent base64-encoded, which API Gateway decodes, with
 * its type and Immich's caching (`private, max-age=86400, no-transform`: the browser keeps it a
 * day, no proxy does).
 */
export class FileResponse {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly cacheControl: string;

  constructor(bytes: Buffer, contentType: string, cacheControl = 'private, max-age=86400, no-transform') {
    this.bytes = bytes;
    this.contentType = contentType;
    this.cacheControl = cacheControl;
  }
}

export const fileResult = (file: FileResponse): LambdaResult => ({
  statusCode: 200,
  headers: { 'content-type': file.contentType, 'cache-control': file.cacheControl, 'content-length': String(file.bytes.length) },
  body: file.bytes.toString('base64'),
  isBase64Encoded: true,
});
