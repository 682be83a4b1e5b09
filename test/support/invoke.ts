import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { toApiGatewayEvent } from '#infra/local/http-event.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface Call {
  method?: string;
  path: string;
  /** Appended to the path as a query string; arrays repeat the key. */
  query?: Record<string, string | number | boolean | (string | number)[]>;
  headers?: Record<string, string>;
  /** Serialised as JSON unless it is already a string or Buffer. */
  body?: unknown;
  pathParameters?: Record<string, string>;
  routeKey?: string;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
  cookies: string[];
}

const context = { awsRequestId: 'test', functionName: 'test', getRemainingTimeInMillis: () => 30_000 } as Context;

const queryString = (query: Call['query']): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** Calls a handler module's `handler` with the same API Gateway v2 event the local server builds. */
export const invoke = async <T = any>(handler: Handler, call: Call): Promise<Reply<T>> => {
  const isRaw = typeof call.body === 'string' || Buffer.isBuffer(call.body);
  const headers = { ...(call.body !== undefined && !isRaw ? { 'content-type': 'application/json' } : {}), ...call.headers };
  const event = toApiGatewayEvent(
    {
      method: call.method ?? 'GET',
      url: `${call.path}${queryString(call.query)}`,
      headers,
      body: call.body === undefined ? undefined : isRaw ? (call.body as string | Buffer) : JSON.stringify(call.body),
    },
    { routeKey: call.routeKey ?? `${call.method ?? 'GET'} ${call.path}`, pathParameters: call.pathParameters },
  );
  const result = await handler(event, context);
  const text = result.body ?? '';
  return {
    status: result.statusCode ?? 200,
    body: text && (result.headers?.['content-type'] ?? '').toString().includes('json') ? JSON.parse(text) : text,
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])),
    cookies: result.cookies ?? [],
  };
};
