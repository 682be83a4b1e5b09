import { Forbidden, Unauthenticated } from '../core/errors.ts';
import { getApiKeyByHash } from '../db/api-key.repository.ts';
import { getSession } from '../db/session.repository.ts';
import { getSharedLinkByKeyHash } from '../db/shared-link.repository.ts';
import type { Auth } from '../model/user.ts';
import { hashSecret, hashSharedLinkKey } from './crypto.ts';

/**
 * Who may call a route. `user` is any signed-in user (session or API key); `admin` also needs the
 * role; `shared` also lets a shared-link visitor in (Immich's `@SharedLinkRoute()`).
 */
export type Access = 'public' | 'user' | 'admin' | 'shared';

/** The one credential a request presents, as the HTTP edge found it (shared/http/credentials.ts). */
export type Credentials = { kind: 'shareKey' | 'session' | 'apiKey'; secret: string };

/**
 * Resolves the caller with one GetItem (by SHA-256 of the presented secret), then applies the
 * route's access level: unauthenticated without valid credentials; forbidden for a shared-link
 * key on a user route or a non-admin on an admin route.
 */
export const authenticate = async (credentials: Credentials | undefined, access: Exclude<Access, 'public'>): Promise<Auth> => {
  if (!credentials) throw new Unauthenticated('Authentication required');
  let auth: Auth;
  switch (credentials.kind) {
    case 'shareKey': {
      const link = await getSharedLinkByKeyHash(hashSharedLinkKey(credentials.secret));
      if (!link?.userActive || (link.expiresAt !== null && new Date(link.expiresAt).getTime() <= Date.now()))
        throw new Unauthenticated('Invalid share key');
      // A valid key on a route that is not a shared-link route: Nest's guard says no.
      if (access !== 'shared') throw new Forbidden();
      auth = {
        user: { id: link.userId, email: link.email, isAdmin: link.isAdmin },
        sharedLink: { id: link.linkId, key: credentials.secret },
      };
      break;
    }
    case 'session': {
      const session = await getSession(hashSecret(credentials.secret));
      // A deleted user's sessions let no one in (Immich no longer finds the user), until a restore.
      if (!session?.userActive) throw new Unauthenticated('Invalid user token');
      auth = { user: { id: session.userId, email: session.email, isAdmin: session.isAdmin }, sessionHash: session.tokenHash };
      break;
    }
    case 'apiKey': {
      const key = await getApiKeyByHash(hashSecret(credentials.secret));
      if (!key?.userActive) throw new Unauthenticated('Invalid API key');
      auth = { user: { id: key.userId, email: key.email, isAdmin: key.isAdmin } };
      break;
    }
  }
  if (access === 'admin' && !auth.user.isAdmin) throw new Forbidden();
  return auth;
};
