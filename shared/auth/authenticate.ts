import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { getApiKeyByHash } from '../db/api-key.repository.ts';
import { getSession } from '../db/session.repository.ts';
import { getSharedLinkByKeyHash } from '../db/shared-link.repository.ts';
import { ForbiddenException, UnauthorizedException } from '../http/errors.ts';
import type { Access } from '../http/pipeline.ts';
import { parseQuery } from '../http/query.ts';
import { hashSecret, hashSharedLinkKey } from './crypto.ts';

/** Who is calling: the user, and which credential they used. */
export interface Auth {
  /** For a shared-link visitor: the link's creator (as in Immich). */
  user: { id: string; email: string; isAdmin: boolean };
  /** Set when the caller signed in with a session token (its SHA-256); absent for an API key. */
  sessionHash?: string;
  /** Set for a shared-link visitor: the link (and the key they presented). */
  sharedLink?: { id: string; key: string };
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value) || undefined;

const cookie = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  for (const entry of event.cookies ?? []) {
    const separator = entry.indexOf('=');
    if (separator > 0 && entry.slice(0, separator).trim() === name) return decodeURIComponent(entry.slice(separator + 1).trim()) || undefined;
  }
  return undefined;
};

const bearer = (header: string | undefined): string | undefined => {
  const match = /^bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim() || undefined;
};

/**
 * Immich's credential order: a shared-link key, else a user token (header, query, Bearer, cookie),
 * else an API key. Only the first kind found is checked; nothing falls back to the next kind.
 */
export const readCredentials = (event: APIGatewayProxyEventV2) => {
  const headers = event.headers ?? {};
  const query = event.rawQueryString ? parseQuery(event.rawQueryString) : {};
  const shareKey = headers['x-immich-share-key'] || first(query.key);
  if (shareKey) return { kind: 'shareKey', secret: shareKey } as const;
  const token =
    headers['x-immich-user-token'] || first(query.userToken) || bearer(headers.authorization) || cookie(event, 'immich_access_token');
  if (token) return { kind: 'session', secret: token } as const;
  const apiKey = headers['x-api-key'] || first(query.apiKey);
  if (apiKey) return { kind: 'apiKey', secret: apiKey } as const;
  return undefined;
};

/**
 * Resolves the caller with one GetItem (by SHA-256 of the presented secret), then applies the
 * route's access level: 401 without valid credentials, 403 for a shared-link key on a user route
 * or a non-admin on an admin route.
 */
export const authenticate = async (event: APIGatewayProxyEventV2, access: Access): Promise<Auth | undefined> => {
  if (access === 'public') return undefined;
  const credentials = readCredentials(event);
  if (!credentials) throw new UnauthorizedException('Authentication required');

  let auth: Auth;
  switch (credentials.kind) {
    case 'shareKey': {
      const link = await getSharedLinkByKeyHash(hashSharedLinkKey(credentials.secret));
      if (!link || (link.expiresAt !== null && new Date(link.expiresAt).getTime() <= Date.now())) throw new UnauthorizedException('Invalid share key');
      // A valid key on a route that is not a shared-link route: Nest's guard says no.
      if (access !== 'shared') throw new ForbiddenException();
      auth = { user: { id: link.userId, email: link.email, isAdmin: link.isAdmin }, sharedLink: { id: link.linkId, key: credentials.secret } };
      break;
    }
    case 'session': {
      const session = await getSession(hashSecret(credentials.secret));
      if (!session) throw new UnauthorizedException('Invalid user token');
      auth = { user: { id: session.userId, email: session.email, isAdmin: session.isAdmin }, sessionHash: session.tokenHash };
      break;
    }
    case 'apiKey': {
      const key = await getApiKeyByHash(hashSecret(credentials.secret));
      if (!key) throw new UnauthorizedException('Invalid API key');
      auth = { user: { id: key.userId, email: key.email, isAdmin: key.isAdmin } };
      break;
    }
  }
  if (access === 'admin' && !auth.user.isAdmin) throw new ForbiddenException();
  return auth;
};
