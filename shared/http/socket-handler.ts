import type { Context } from 'aws-lambda';
import { authenticate } from '../auth/authenticate.ts';
import * as env from '../core/env.ts';
import { Forbidden, Unauthenticated } from '../core/errors.ts';
import { log, withLogContext } from '../core/log.ts';
import type { Generation } from '../model/realtime.ts';
import type { Auth } from '../model/user.ts';
import { type CredentialSource, readCredentials } from './credentials.ts';
import { isV3App } from './generation.ts';

/**
 * What API Gateway's WebSocket API hands the functions of its `$connect` and `$disconnect`
 * routes (a Lambda proxy integration): the connection's id and, on `$connect`, the upgrade
 * request's headers. Read defensively: nothing here trusts its shape.
 */
export interface SocketEvent {
  requestContext: { connectionId: string; routeKey?: string; requestId?: string };
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, readonly string[] | undefined> | null;
}

/** What the route answers: on `$connect`, anything but a 2xx refuses the upgrade. */
export interface SocketResult {
  statusCode: number;
}

/**
 * The upgrade request as the HTTP edge reads any request: its headers lower-cased, its cookies
 * from its `Cookie` header. Its query is never read: Immich ignores the socket's query, so a
 * `?apiKey=` there signs nothing in.
 */
const asRequest = (event: SocketEvent): CredentialSource => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (typeof value === 'string') headers[name.toLowerCase()] = value;
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {}))
    if (Array.isArray(values) && !(name.toLowerCase() in headers))
      headers[name.toLowerCase()] = values.join(name.toLowerCase() === 'cookie' ? '; ' : ', ');
  const cookies = (headers.cookie ?? '')
    .split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);
  return { headers, rawQueryString: '', cookies };
};

/**
 * Which generation's shapes a connection is answered in (docs/immich-compatibility.md,
 * "Realtime"): Immich's 3.x apps name themselves in the User-Agent, as on every request; a browser
 * is the web app this deployment serves, whose generation the stack knows (`WEB_GENERATION`).
 */
const generationOf = (request: CredentialSource): Generation => (isV3App(request) ? 'v3' : env.webGeneration());

const connectionIdOf = (event: SocketEvent): string => {
  const id = event.requestContext?.connectionId;
  if (typeof id !== 'string' || id.length === 0) throw new Error('A WebSocket event without its connection id');
  return id;
};

export interface ConnectRoute {
  /** A signed-in connection (the caller, as any route's handler gets it). */
  open: (input: { auth: Auth; connectionId: string; generation: Generation }) => Promise<void>;
  /** A connection whose credentials were refused (401 or 403 on any route). */
  refuse: (connectionId: string) => Promise<void>;
}

/**
 * The `$connect` route: the upgrade request's credentials read and checked by the same code as
 * every route's (shared/http/credentials.ts, shared/auth/authenticate.ts), with the rule of a
 * signed-in route whose API keys need `all`, as Immich's socket asks of them. Refused credentials
 * still open the connection: it is then told so as Immich tells it, after which Immich's apps do
 * not try again (a refused upgrade they would retry every few seconds, each a Lambda invocation).
 */
export const connectHandler =
  (route: ConnectRoute) =>
  (event: SocketEvent, context?: Context): Promise<SocketResult> =>
    withLogContext({ requestId: event.requestContext?.requestId ?? context?.awsRequestId ?? 'local' }, async () => {
      const connectionId = connectionIdOf(event);
      const request = asRequest(event);
      let auth: Auth;
      try {
        auth = await authenticate(readCredentials(request), { access: 'user', permission: 'all' });
      } catch (error) {
        if (!(error instanceof Unauthenticated || error instanceof Forbidden)) throw error;
        await route.refuse(connectionId);
        log.info('realtime', { route: '$connect', status: 'refused' });
        return { statusCode: 200 };
      }
      await route.open({ auth, connectionId, generation: generationOf(request) });
      log.info('realtime', { route: '$connect', status: 'open', userId: auth.user.id });
      return { statusCode: 200 };
    });

/** The `$disconnect` route (and any other that names only the connection). */
export const disconnectHandler =
  (close: (connectionId: string) => Promise<void>) =>
  (event: SocketEvent, context?: Context): Promise<SocketResult> =>
    withLogContext({ requestId: event.requestContext?.requestId ?? context?.awsRequestId ?? 'local' }, async () => {
      await close(connectionIdOf(event));
      log.info('realtime', { route: '$disconnect', status: 'closed' });
      return { statusCode: 200 };
    });
