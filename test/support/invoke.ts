import { Writable } from 'node:stream';
import { constants, gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { toApiGatewayEvent } from '#infra/local/http-event.ts';

type BufferedHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
/** A response-streaming handler (shared/http/stream-handler.ts): it writes to the stream it is given. */
type StreamingHandler = ((
  event: APIGatewayProxyEventV2,
  stream: Writable & { setPrelude(prelude: Prelude): void },
  context: Context,
) => Promise<void>) & {
  streaming: true;
};
type Prelude = { statusCode: number; headers: Record<string, string> };
type Handler = BufferedHandler | StreamingHandler;

const isStreaming = (handler: Handler): handler is StreamingHandler => 'streaming' in handler && handler.streaming === true;

/**
 * A streaming handler's answer, collected as Lambda would buffer it (gzip undone), in a buffered
 * handler's shape; `complete`: the handler ended the stream (one it destroyed was cut short).
 */
const collect = async (
  handler: StreamingHandler,
  event: APIGatewayProxyEventV2,
  lambdaContext: Context,
): Promise<APIGatewayProxyStructuredResultV2 & { complete: boolean }> => {
  const chunks: Buffer[] = [];
  let prelude: Prelude = { statusCode: 0, headers: {} };
  let ended = false;
  const stream = Object.assign(
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        chunks.push(Buffer.from(chunk));
        callback();
      },
      final: (callback) => {
        ended = true;
        callback();
      },
    }),
    { setPrelude: (value: Prelude) => (prelude = value) },
  );
  await handler(event, stream, lambdaContext);
  const raw = Buffer.concat(chunks);
  // What a cut gzip stream carried is read as far as it goes.
  const gzip = prelude.headers['content-encoding'] === 'gzip';
  const body = (gzip ? gunzipSync(raw, ended ? {} : { finishFlush: constants.Z_SYNC_FLUSH }) : raw).toString('utf8');
  return { statusCode: prelude.statusCode, headers: prelude.headers, body, complete: ended };
};

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
  /** What Lambda's context says is left of the invocation (30 s unless given; 300 s for a streaming handler). */
  remainingMs?: number;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
  cookies: string[];
  /** The answer ended cleanly (false: a streamed answer the handler cut short). */
  complete: boolean;
}

const context = { awsRequestId: 'test', functionName: 'test', getRemainingTimeInMillis: () => 30_000 } as Context;
/** A streamed route's function has 5 minutes (infra/routes.ts `functionTimeoutSeconds`). */
const streamContext = { ...context, getRemainingTimeInMillis: () => 300_000 } as Context;

const queryString = (query: Call['query']): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** JSON as parsed; JSON lines (the sync stream) as the list of their values; anything else as text. */
const parseBody = (text: string, contentType: string): any => {
  if (!text || !contentType.includes('json')) return text;
  if (contentType.startsWith('application/jsonlines+json'))
    // Each line ends with a newline: what follows the last one is a line cut short, never handled.
    return text
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line));
  return JSON.parse(text);
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
  const withTime = call.remainingMs === undefined ? context : { ...context, getRemainingTimeInMillis: () => call.remainingMs ?? 0 };
  const result = isStreaming(handler)
    ? await collect(handler, event, call.remainingMs === undefined ? streamContext : withTime)
    : { ...(await handler(event, withTime)), complete: true };
  // A gzip-compressed answer (shared/http/json-answer.ts) is read as the client's HTTP stack reads it; other bytes stay base64.
  const gzipped = 'isBase64Encoded' in result && result.isBase64Encoded && result.headers?.['content-encoding'] === 'gzip';
  const text = gzipped ? gunzipSync(Buffer.from(result.body ?? '', 'base64')).toString('utf8') : (result.body ?? '');
  return {
    status: result.statusCode ?? 200,
    body: parseBody(text, String(result.headers?.['content-type'] ?? '')),
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])),
    cookies: result.cookies ?? [],
    complete: result.complete,
  };
};
