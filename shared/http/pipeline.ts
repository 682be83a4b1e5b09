import middy from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import type { Access, ApiKeyPermission, RouteRule } from '../auth/authenticate.ts';
import * as env from '../core/env.ts';
import { bodyTooLarge, Invalid } from '../core/errors.ts';
import { log, withLogContext } from '../core/log.ts';
import { parseOrThrow } from '../dto/validate.ts';
import type { LiveEvent } from '../model/realtime.ts';
import { collectEvents } from '../realtime/outbox.ts';
import { logRequest } from './access-log.ts';
import { errorResult, type Generation } from './errors.ts';
import { parseQuery } from './query.ts';
import { HttpResponse, jsonResult, type LambdaResult, RawResponse } from './response.ts';

/**
 * The response type a route answers with. It is declared on the endpoint (`returns<UserResponse>()`)
 * and checked against what the handler's function returns, so a service that changes its result
 * type fails the compile at every route that serves it.
 */
declare const resultType: unique symbol;
export interface Returns<T> {
  readonly [resultType]?: T;
}
export const returns = <T>(): Returns<T> => ({});

export interface Endpoint<TBody, TParams, TQuery, TResult> {
  access: Access;
  /** What an API key needs to call it (Immich's controllers): `all` when absent, `false` for any key (shared/access/route.ts). */
  permission?: ApiKeyPermission | false;
  body?: TBody;
  params?: TParams;
  query?: TQuery;
  /** Success status; Immich answers 201 to POSTs unless told otherwise. */
  status?: number;
  /** The API generation of the route (infra/routes.ts): v3's answer errors in v3's shape; v1.100's when absent. */
  generation?: Generation;
  /**
   * Sends the realtime events its operation raised, once it succeeded (`publish` of
   * shared/realtime/publisher.ts): given only by the routes whose service raises some, whose rows
   * say `realtime` (infra/routes.ts; test/unit/routes.test.ts checks both agree). A route without
   * it never bundles the publisher (docs/benchmarks.md, "Realtime"). It stops by `deadline`
   * (epoch ms), which leaves the answer its time before Lambda's (and API Gateway's) limit.
   */
  publish?: (events: readonly LiveEvent[], options: { deadline: number }) => Promise<void>;
  returns: Returns<TResult>;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

export interface HandlerInput<TAuth, TBody, TParams, TQuery> {
  auth: TAuth;
  body: Out<TBody>;
  params: Out<TParams>;
  query: Out<TQuery>;
  event: APIGatewayProxyEventV2;
}

export type HandlerFn<TAuth, TBody, TParams, TQuery, TResult> = (
  input: HandlerInput<TAuth, TBody, TParams, TQuery>,
) => TResult | HttpResponse<TResult> | Promise<TResult | HttpResponse<TResult>>;

/** A route's input schemas as its handler carries them (typed loosely: any two handlers have the same type). */
export interface HandlerSchemas {
  body: v.GenericSchema | undefined;
  params: v.GenericSchema | undefined;
  query: v.GenericSchema | undefined;
}

/** Resolves the caller for a route's rule, or throws. Supplied by the auth module. */
export type Authenticator<TAuth> = (event: APIGatewayProxyEventV2, rule: RouteRule) => Promise<TAuth>;

/** The event as the stack leaves it for the handler: the parsed body and the resolved caller. */
type Event = APIGatewayProxyEventV2 & { parsedBody?: unknown; auth?: unknown };

const requestIdOf = (event: APIGatewayProxyEventV2, context: Context | undefined): string =>
  event.requestContext?.requestId ?? context?.awsRequestId ?? 'local';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @middy/http-json-body-parser's errors: malformed JSON is a 422 there (415 a wrong type) and a 400 in Immich (Express body-parser). */
const bodyParserError = (error: unknown): Error | undefined => {
  if (!isRecord(error) || (error.statusCode !== 415 && error.statusCode !== 422)) return undefined;
  const cause = isRecord(error.cause) ? error.cause : {};
  return new Invalid(typeof cause.message === 'string' ? cause.message : 'Invalid or malformed JSON was provided');
};

const toResult = <T>(output: T | HttpResponse<T>, status: number): LambdaResult => {
  if (output instanceof RawResponse) return output.result;
  if (output instanceof HttpResponse) {
    const result = jsonResult(output.statusCode ?? status, output.body, output.headers);
    return output.cookies.length > 0 ? { ...result, cookies: output.cookies } : result;
  }
  return jsonResult(status, output);
};

const bodyParser = jsonBodyParser({ disableContentTypeError: true });

/** What publishing leaves of an invocation's time for the answer (its log line, its return to API Gateway). */
const answerMarginMs = 2_000;

/**
 * The middy stack every handler runs: JSON body → authentication → validation of body, path and
 * query (valibot) → handler → JSON response; any error → Immich's JSON error body. Authentication
 * runs before validation, as Immich's guard does (a non-admin gets 403, not 400). The whole
 * invocation runs in a log context carrying its request id (shared/core/log.ts).
 */
export const createHandler = <
  TAuth,
  TBody extends v.GenericSchema | undefined,
  TParams extends v.GenericSchema | undefined,
  TQuery extends v.GenericSchema | undefined,
  TResult,
>(
  endpoint: Endpoint<TBody, TParams, TQuery, TResult>,
  fn: HandlerFn<TAuth, TBody, TParams, TQuery, NoInfer<TResult>>,
  authenticate?: Authenticator<TAuth>,
) => {
  const status = endpoint.status ?? 200;
  const stack = middy<Event, LambdaResult, unknown, Context>({ timeoutEarlyInMillis: 0 });

  // Registered first so that its onError and after run last (middy runs them in reverse).
  stack.use({
    after: (request) => {
      if (request.response) request.response.headers['x-request-id'] = requestIdOf(request.event, request.context);
    },
    onError: (request) => {
      const requestId = requestIdOf(request.event, request.context);
      request.response = errorResult(bodyParserError(request.error) ?? request.error, requestId, endpoint.generation);
      request.response.headers['x-request-id'] = requestId;
    },
  });

  // Before anything reads the body or the table: an oversize body costs nothing more.
  const maxBody = env.maxBodyBytes();
  if (maxBody !== undefined) {
    stack.use({
      before: ({ event }) => {
        const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
        if (size > maxBody) throw bodyTooLarge(maxBody, 'limit');
      },
    });
  }

  if (endpoint.body) {
    stack.use({
      before: (request) => {
        const { event } = request;
        // An empty body is `{}` to Express; middy's parser would call it malformed JSON.
        if (!event.body) {
          event.parsedBody = {};
          return;
        }
        bodyParser.before?.(request as never);
        const parsed: unknown = event.body;
        // A body that is not JSON is left unparsed by Express, so the DTO sees `{}`.
        event.parsedBody = typeof parsed === 'string' ? {} : parsed;
      },
    });
  }

  const access = endpoint.access;
  if (access !== 'public') {
    if (!authenticate) throw new Error(`An endpoint with access '${access}' needs an authenticator`);
    const rule: RouteRule = { access, permission: endpoint.permission ?? 'all' };
    stack.use({
      before: async (request) => {
        request.event.auth = await authenticate(request.event, rule);
      },
    });
  }

  const middyHandler = stack.handler(async (event) => {
    const input: HandlerInput<TAuth, TBody, TParams, TQuery> = {
      auth: event.auth as TAuth,
      body: (endpoint.body ? parseOrThrow(endpoint.body, event.parsedBody) : undefined) as Out<TBody>,
      params: (endpoint.params ? parseOrThrow(endpoint.params, event.pathParameters ?? {}) : undefined) as Out<TParams>,
      query: (endpoint.query ? parseOrThrow(endpoint.query, parseQuery(event.rawQueryString)) : undefined) as Out<TQuery>,
      event,
    };
    return toResult(await fn(input), status);
  });
  const handler = (event: APIGatewayProxyEventV2, context: Context): Promise<LambdaResult> =>
    withLogContext(
      { requestId: requestIdOf(event, context), usage: { dynamoCalls: 0, dynamoReadUnits: 0, dynamoWriteUnits: 0 } },
      async () => {
        const started = performance.now();
        // Immich's apps are told of what the operation did (docs/web-app.md, "Realtime"), with a
        // success only: a failed operation changed nothing to tell of.
        const { result, events } = await collectEvents(() => middyHandler(event, context));
        if (events.length > 0 && result.statusCode < 400) {
          // Before the answer, so bounded (docs/deployment.md, "Realtime"): whatever the publisher's
          // own budget, it stops while the answer still has its margin of the invocation's time.
          const deadline = Date.now() + (context?.getRemainingTimeInMillis?.() ?? 30_000) - answerMarginMs;
          if (endpoint.publish) await endpoint.publish(events, { deadline });
          else log.error('A route raised realtime events but sends none (its handler names no publish)', { events: events.length });
        }
        logRequest(event, result.statusCode, performance.now() - started);
        return result;
      },
    );
  // The declared access, permission, generation and input schemas travel with the handler, so tests
  // can check every route at once (the fuzz of test/functions/fuzz.test.ts generates from the schemas).
  const permission = access === 'public' ? undefined : (endpoint.permission ?? 'all');
  const schemas: HandlerSchemas = { body: endpoint.body, params: endpoint.params, query: endpoint.query };
  return Object.assign(handler, { access, permission, generation: endpoint.generation, realtime: endpoint.publish !== undefined, schemas });
};
