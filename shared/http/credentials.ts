import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Credentials } from '../auth/authenticate.ts';
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
 * Immich's credential order: a shared-link key, else a user token (header, query, Bearer, cookie),
 * else an API key. Only the first kind found is checked; nothing falls back to the next kind.
 */
export const readCredentials = (event: CredentialSource): Credentials | undefined => {
  const headers = event.headers ?? {};
  const query = event.rawQueryString ? parseQuery(event.rawQueryString) : {};
  const shareKey = headers['x-immich-share-key'] || first(query.key);
  if (shareKey) {
    const linkTokens = readCookie(event, sharedLinkTokenCookieName);
    return linkTokens ? { kind: 'shareKey', secret: shareKey, linkTokens } : { kind: 'shareKey', secret: shareKey };
  }
  const token =
    headers['x-immich-user-token'] ||
    headers['x-immich-session-token'] ||
    first(query.userToken) ||
    bearer(headers.authorization) ||
    readCookie(event, 'immich_access_token');
  if (token) return { kind: 'session', secret: token };
  const apiKey = headers['x-api-key'] || first(query.apiKey);
  if (apiKey) return { kind: 'apiKey', secret: apiKey };
  return undefined;
};
