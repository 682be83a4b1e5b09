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

/** A result the handler built itself (files: bytes, ranges, 304s, redirects; shared/http/files.ts). */
export class RawResponse {
  readonly result: LambdaResult;

  constructor(result: LambdaResult) {
    this.result = result;
  }
}
