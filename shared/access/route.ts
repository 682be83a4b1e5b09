import { isSharedLinkToken } from '../core/crypto.ts';
import { Forbidden, Unauthenticated } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';
import { type ApiKeyPermission, isGranted } from './api-key-permission.ts';

/**
 * Who may call a route, as its handler declares it. `user` is any signed-in user (session or API
 * key); `admin` also needs the role; `shared` also lets a shared-link visitor in (Immich's
 * `@SharedLinkRoute()`), who must have proven a password link's password; `link-password` is the
 * link's own route (`GET /shared-link/me`), where a visitor proves it.
 */
export type Access = 'public' | 'user' | 'admin' | 'shared' | 'link-password';

/**
 * A route's rule for a caller: its access level, and the permission an API key needs for it
 * (Immich's `@Authenticated({ permission })`): `all` when the route names none, as in Immich;
 * `false` for a route any key may call (`GET /api-keys/me`).
 */
export interface RouteRule {
  access: Exclude<Access, 'public'>;
  permission?: ApiKeyPermission | false;
}

/**
 * The route's own rule, once the caller is known (Immich's guard): a valid shared-link key on a
 * route that is not a shared-link route, and a user without the role on an admin route, are 403.
 * A visitor of a password link who has not proven the password (no live token for its current
 * password) is refused everywhere but the link's own route, as that route refuses them: 401
 * `Invalid password` (not in Immich, whose other routes took the key alone;
 * docs/immich-compatibility.md).
 */
export const requireRoute = (auth: Auth, { access, permission = 'all' }: RouteRule): void => {
  if (auth.sharedLink && access !== 'shared' && access !== 'link-password') throw new Forbidden();
  if (auth.sharedLink?.locked && access !== 'link-password') throw new Unauthenticated('Invalid password');
  if (access === 'admin' && !auth.user.isAdmin) throw new Forbidden();
  if (auth.apiKey && permission !== false && !isGranted([permission], auth.apiKey.permissions))
    throw new Forbidden(`Missing required permission: ${permission}`);
};

/** The tokens a visitor presents (the `immich_shared_link_token` cookie: every link they opened, comma-separated; 100 at most). */
export const linkTokensOf = (tokens: string | null | undefined): string[] => (tokens ?? '').split(',').filter(Boolean).slice(0, 100);

/**
 * Whether a visitor presenting these tokens has proven this link's password: a live token made
 * for the link and its current password hash (shared/core/crypto.ts). A link without a password is open.
 */
export const linkUnlocked = (secret: string, tokens: string | null | undefined, linkId: string, passwordHash: string | null): boolean =>
  passwordHash === null || linkTokensOf(tokens).some((token) => isSharedLinkToken(secret, token, linkId, passwordHash));
