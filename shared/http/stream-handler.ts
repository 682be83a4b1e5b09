import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { Access } from '../auth/authenticate.ts';
import * as env from '../core/env.ts';
import { log } from '../core/log.ts';
import type { Auth } from '../model/user.ts';
import { httpHandler } from './handler.ts';
import { type Endpoint, type HandlerInput, returns } from './pipeline.ts';
import { type LambdaResult, RawResponse } from './response.ts';

/** A streamed answer's status and headers, sent before its body (Lambda's `HttpResponseStream` prelude). */
export type Prelude = {
  statusCode: number;
  headers: Record<string, string>;
};

/** The stream Lambda hands a streaming function; here it may also take its prelude itself (npm start, tests). */
export type ResponseStream = Writable & { setPrelude?: (prelude: Prelude) => void };

/** Why a streamed answer should end before it is whole: its function's time, or Lambda's 200 MB an answer. */
export type Ending = 'time' | 'bytes';

/** Where a streamed body's lines go; a write resolves once the next may follow (backpressure). */
export interface LineSink {
  write(line: string): Promise<void> | void;
  /**
   * Whether the answer should end at its next clean point (docs/deployment.md, "The sync stream"):
   * its function has less than `STREAM_END_MARGIN_MS` left, or it has sent (with what waits to be
   * sent) `STREAM_MAX_BYTES`. Its writer then ends after a whole run of lines, as a finished answer.
   */
  ending(): Ending | undefined;
}

type Writer = (sink: LineSink) => Promise<void>;

/** The pipeline's answer to a prepared route: a 200 carrying the writer it prepared (never serialised); an error without one. */
type Prepared = LambdaResult & { writer?: Writer };

// Lambda's Node.js runtime defines `awslambda` (response streaming); npm start and the tests do not.
const isLambdaRuntime = (value: unknown): value is typeof awslambda =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'streamifyResponse') === 'function';
const runtime: unknown = Reflect.get(globalThis, 'awslambda');
const lambda = isLambdaRuntime(runtime) ? runtime : undefined;

const open = (stream: ResponseStream, prelude: Prelude): Writable => {
  if (lambda) return lambda.HttpResponseStream.from(stream, prelude);
  stream.setPrelude?.(prelude);
  return stream;
};

const write = async (stream: Writable, chunk: string | Buffer): Promise<void> => {
  if (!stream.write(chunk)) await once(stream, 'drain');
};

const end = async (stream: Writable): Promise<void> => {
  stream.end();
  if (!stream.writableFinished) await once(stream, 'finish');
};

const fromDistribution = (event: APIGatewayProxyEventV2): boolean => {
  const expected = env.originVerify();
  if (!expected) return true;
  const given = Buffer.from(Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'x-origin-verify')?.[1] ?? '');
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
};

/** Lines are sent in chunks of about this many bytes (fewer, larger writes), and whatever is left at the end. */
const chunkBytes = 64 * 1024;

/**
 * A route answered with Lambda response streaming (docs/deployment.md, "The sync stream"): the
 * same pipeline as every route (authentication, validation, Immich's errors as plain JSON), whose
 * function prepares a writer; a prepared writer then streams its lines, gzip-compressed when the
 * client accepts it, as they are produced: memory stays flat however long the answer is.
 */
export const streamingHandler = <
  TBody extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
>(
  endpoint: Omit<Endpoint<TBody, undefined, TQuery, void>, 'returns' | 'status'> & {
    access: Exclude<Access, 'public' | 'shared' | 'link-password'>;
    contentType: string;
  },
  prepare: (input: HandlerInput<Auth, TBody, undefined, TQuery>) => Promise<Writer>,
) => {
  const { contentType, ...rest } = endpoint;
  // The route's prepare step runs as the pipeline's function; its writer comes back with the pipeline's answer.
  const inner = httpHandler(
    { ...rest, returns: returns<RawResponse>(), status: 200 } as Endpoint<TBody, undefined, TQuery, RawResponse> & typeof rest,
    async (input) => {
      const prepared: Prepared = { statusCode: 200, headers: {}, body: '', writer: await prepare(input) };
      return new RawResponse(prepared);
    },
  );
  const run = async (event: APIGatewayProxyEventV2, stream: ResponseStream, context: Context): Promise<void> => {
    // Deployed, the function URL is public: only a request CloudFront forwarded carries the stack's token.
    if (!fromDistribution(event)) {
      const out = open(stream, { statusCode: 403, headers: { 'content-type': 'application/json; charset=utf-8' } });
      await write(out, JSON.stringify({ message: 'Forbidden' }));
      await end(out);
      return;
    }
    const { writer, ...result }: Prepared = await inner(event, context);
    if (!writer || result.statusCode !== 200) {
      const out = open(stream, { statusCode: result.statusCode, headers: result.headers });
      await write(out, result.body ?? '');
      await end(out);
      return;
    }
    const accepts = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? '';
    const gzip = /\bgzip\b/i.test(accepts);
    const out = open(stream, {
      statusCode: 200,
      headers: {
        'content-type': contentType,
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        'x-request-id': result.headers['x-request-id'] ?? '',
      },
    });
    const compressor = gzip ? createGzip() : undefined;
    // The bytes the response carries (compressed when it is): those sent, and those waiting in `pending`.
    let sent = 0;
    const counter = compressor
      ? new Transform({
          transform: (chunk: Buffer, _encoding, callback) => {
            sent += chunk.length;
            callback(null, chunk);
          },
        })
      : undefined;
    const target: Writable = compressor ?? out;
    // The compressed bytes flow on to the response; done once all of them are written and it is ended.
    const piped = compressor && counter ? pipeline(compressor, counter, out) : undefined;
    // Awaited below; a failure meanwhile is the catch's (never an unhandled rejection).
    piped?.catch(() => undefined);
    const margin = env.streamEndMarginMs();
    const maxBytes = env.streamMaxBytes();
    let pending = '';
    let pendingBytes = 0;
    try {
      await writer({
        write: async (line) => {
          pending += line;
          pendingBytes += Buffer.byteLength(line);
          if (pending.length >= chunkBytes) {
            const chunk = pending;
            if (!compressor) sent += pendingBytes;
            pending = '';
            pendingBytes = 0;
            await write(target, chunk);
          }
        },
        ending: () => {
          if ((context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY) < margin) return 'time';
          return sent + pendingBytes >= maxBytes ? 'bytes' : undefined;
        },
      });
      if (pending) await write(target, pending);
      await end(target);
      await piped;
    } catch (error) {
      // The status is sent: all that is left is to cut the answer short (the client keeps what it acked).
      log.error('stream failed', { error: error instanceof Error ? error.message : String(error) });
      target.destroy();
      out.destroy();
    }
  };
  // Deployed, Lambda's runtime calls it with its own stream (a function URL in RESPONSE_STREAM mode).
  // What Lambda marks for streaming is still `run`, called with its own HttpResponseStream (a ResponseStream).
  const handler = lambda ? (lambda.streamifyResponse(run) as typeof run) : run;
  return Object.assign(handler, {
    streaming: true as const,
    access: inner.access,
    permission: inner.permission,
    generation: inner.generation,
    schemas: inner.schemas,
  });
};
