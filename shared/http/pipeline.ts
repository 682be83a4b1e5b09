import middy from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as v from 'valibot';
import { BadRequestException, HttpError, reasonPhrase } from './errors.ts';
import { log, setLogRequestId } from './log.ts';
import { parseQuery } from './query.ts';
import { HttpResponse, jsonResult, type LambdaResult } from './response.ts';
import { parseOrThrow } from './validation.ts';

/**
 * Who may call a route. `user` is any signed-in user (session or API key); `admin` also needs the
 * role; `shared` also lets a shared-link visitor in (Immich's `@SharedLinkRoute()`).
 */
export type Access = 'public' | 'user' | 'admin' | 'shared';

export interface Endpoint<
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
> {
  access: Access;
  body?: TBody;
  params?: TParams;
  query?: TQuery;
  /** Success status; Immich answers 201 to POSTs unless told otherwise. */
  status?: number;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

export interface HandlerInput<TAuth, TBody, TParams, TQuery> {
  auth: TAuth;
  body: Out<TBody>;
  params: Out<TParams>;
  query: Out<TQuery>;
  event: APIGatewayProxyEventV2;
}

/** Resolves the caller for an access level, or throws 401/403. Supplied by the auth module. */
export type Authenticator<TAuth> = (event: APIGatewayProxyEventV2, access: Access) => Promise<TAuth>;

/** The event as the stack leaves it for the handler: the parsed body and the resolved caller. */
type Event = APIGatewayProxyEventV2 & { parsedBody?: unknown; auth?: unknown };

const requestIdOf = (event: Event, context: Context): string =>
  event.requestContext?.requestId ?? context.awsRequestId ?? 'local';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Maps anything thrown to Immich's JSON error body; unknown errors become a fixed 500. */
export const errorResult = (error: unknown, requestId: string): LambdaResult => {
  if (error instanceof HttpError) return jsonResult(error.statusCode, error.toBody());
  const status = isRecord(error) && typeof error.statusCode === 'number' ? error.statusCode : undefined;
  // @middy/http-json-body-parser: malformed JSON is a 422 there and a 400 in Immich (Express body-parser).
  if (status === 415 || status === 422) {
    const cause = isRecord(error) && isRecord(error.cause) ? error.cause : {};
    const message = typeof cause.message === 'string' ? cause.message : 'Invalid or malformed JSON was provided';
    return jsonResult(400, new BadRequestException(message).toBody());
  }
  if (status !== undefined && status >= 400 && status < 500 && isRecord(error) && error.expose === true) {
    const message = typeof error.message === 'string' ? error.message : reasonPhrase(status);
    return jsonResult(status, { message, error: reasonPhrase(status), statusCode: status });
  }
  log.error('Unhandled error', { error: error instanceof Error ? error.stack : String(error) });
  return jsonResult(500, {
    message: `Internal server error (request id ${requestId})`,
    error: reasonPhrase(500),
    statusCode: 500,
  });
};

const toResult = (output: unknown, status: number): LambdaResult => {
  if (output instanceof HttpResponse) {
    const result = jsonResult(output.statusCode ?? status, output.body, output.headers);
    return output.cookies.length > 0 ? { ...result, cookies: output.cookies } : result;
  }
  return jsonResult(status, output);
};

const bodyParser = jsonBodyParser({ disableContentTypeError: true });

/**
 * The middy stack every handler runs: request id → JSON body → authentication → validation of
 * body, path and query (valibot) → handler → JSON response; any error → Immich's JSON error body.
 * Authentication runs before validation, as Immich's guard does (a non-admin gets 403, not 400).
 */
export const createHandler = <
  TAuth,
  TBody extends v.GenericSchema | undefined = undefined,
  TParams extends v.GenericSchema | undefined = undefined,
  TQuery extends v.GenericSchema | undefined = undefined,
>(
  endpoint: Endpoint<TBody, TParams, TQuery>,
  fn: (input: HandlerInput<TAuth, TBody, TParams, TQuery>) => unknown,
  authenticate?: Authenticator<TAuth>,
) => {
  const status = endpoint.status ?? 200;
  const stack = middy<Event, LambdaResult, unknown, Context>({ timeoutEarlyInMillis: 0 });

  // Registered first so that its onError and after run last (middy runs them in reverse).
  stack.use({
    before: (request) => setLogRequestId(requestIdOf(request.event, request.context)),
    after: (request) => {
      if (request.response) request.response.headers['x-request-id'] = requestIdOf(request.event, request.context);
    },
    onError: (request) => {
      const requestId = requestIdOf(request.event, request.context);
      request.response = errorResult(request.error, requestId);
      request.response.headers['x-request-id'] = requestId;
    },
  });

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

  if (endpoint.access !== 'public' && !authenticate) {
    throw new Error(`An endpoint with access '${endpoint.access}' needs an authenticator`);
  }
  if (authenticate) {
    stack.use({
      before: async (request) => {
        request.event.auth = await authenticate(request.event, endpoint.access);
      },
    });
  }

  const handler = stack.handler(async (event) => {
    const input = {
      auth: event.auth as TAuth,
      body: (endpoint.body ? parseOrThrow(endpoint.body, event.parsedBody) : undefined) as Out<TBody>,
      params: (endpoint.params ? parseOrThrow(endpoint.params, event.pathParameters ?? {}) : undefined) as Out<TParams>,
      query: (endpoint.query ? parseOrThrow(endpoint.query, parseQuery(event.rawQueryString)) : undefined) as Out<TQuery>,
      event,
    };
    return toResult(await fn(input), status);
  });
  // The declared access travels with the handler, so tests can check every admin route at once.
  return Object.assign(handler, { access: endpoint.access });
};
