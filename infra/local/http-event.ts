import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface RawRequest {
  method: string;
  /** Path and query string, as on the request line. */
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  sourceIp?: string;
}

export interface RouteMatch {
  routeKey: string;
  pathParameters?: Record<string, string>;
}

// API Gateway passes these as text; any other body is base64-encoded with isBase64Encoded=true.
const textTypes = /^(text\/|application\/(json|xml|x-www-form-urlencoded|[\w.+-]+\+(json|xml)))/i;

/**
 * An API Gateway HTTP API event, payload format 2.0, as API Gateway would build it: lower-cased
 * headers (repeats joined by commas), the cookie header moved into `cookies`, the raw query string
 * kept, comma-joined `queryStringParameters`, and binary bodies base64-encoded. The local server
 * and the handler tests both build events here.
 */
export const toApiGatewayEvent = (request: RawRequest, match: RouteMatch): APIGatewayProxyEventV2 => {
  const questionMark = request.url.indexOf('?');
  const rawPath = questionMark < 0 ? request.url : request.url.slice(0, questionMark);
  const rawQueryString = questionMark < 0 ? '' : request.url.slice(questionMark + 1);

  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(key === 'cookie' ? '; ' : ',') : value;
    if (key === 'cookie') cookies = joined.split(/;\s*/).filter(Boolean);
    else headers[key] = joined;
  }

  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }

  const buffer = request.body === undefined ? undefined : Buffer.from(request.body);
  const hasBody = buffer !== undefined && buffer.length > 0;
  const isText = textTypes.test(headers['content-type'] ?? '');
  const now = new Date();
  const requestId = randomUUID();

  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(rawQueryString ? { queryStringParameters: query } : {}),
    ...(match.pathParameters && Object.keys(match.pathParameters).length > 0 ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method.toUpperCase(),
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: match.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(hasBody ? { body: isText ? buffer.toString('utf8') : buffer.toString('base64') } : {}),
    isBase64Encoded: hasBody && !isText,
  };
};
