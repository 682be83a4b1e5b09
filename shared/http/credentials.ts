import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Credentials } from '../auth/authenticate.ts';
import { agentOf } from '../model/session.ts';
import { readCookie, sharedLinkTokenCookieName } from './cookies.ts';
import { parseQuery } from './query.ts';

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

const bearer = (header: string | undefined): string | undefined => {
  const match = /^bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim() || undefined;
};

/** What credentials are read from: a request's headers, query and cookies (a socket's upgrade request has no query read). */
export type CredentialSource = Pick<APIGatewayProxyEventV2, 'headers' | 'rawQueryString' | 'cookies'>;

/**
 * Immich v3's credential order (docs/immich-compatibility.md, "Requests and errors"): a shared
 * link's key, else its slug, else a session token, else an API key. Only the first kind found is
 * checked; nothing falls back to the next kind. A session token is read from `x-immich-user-token`,
 * `x-immich-session-token`, `?sessionKey=` (the home-screen widgets and Google Cast), v1.100's
 * `?userToken=`, `Authorization: Bearer`, then the cookie: the first one present wins.
 */
export const readCredentials = (event: CredentialSource): Credentials | undefined => {
  const headers = event.headers ?? {};
  const query = event.rawQueryString ? parseQuery(event.rawQueryString) : {};
  const shareKey = headers['x-immich-share-key'] || first(query.key);
  const shareSlug = shareKey ? undefined : headers['x-immich-share-slug'] || first(query.slug);
  if (shareKey || shareSlug) {
    const kind = shareKey ? 'shareKey' : 'shareSlug';
    const secret = shareKey ?? shareSlug ?? '';
    const linkTokens = readCookie(event, sharedLinkTokenCookieName);
    return linkTokens ? { kind, secret, linkTokens } : { kind, secret };
  }
  const token =
    headers['x-immich-user-token'] ||
    headers['x-immich-session-token'] ||
    first(query.sessionKey) ||
    first(query.userToken) ||
    bearer(headers.authorization) ||
    readCookie(event, 'immich_access_token');
  if (token) return { kind: 'session', secret: token, agent: agentOf(headers) };
  const apiKey = headers['x-api-key'] || first(query.apiKey);
  if (apiKey) return { kind: 'apiKey', secret: apiKey };
  return undefined;
};
