import { Forbidden } from '../core/errors.ts';
import type { Auth } from '../model/user.ts';

/**
 * Who may call a route, as its handler declares it. `user` is any signed-in user (session or API
 * key); `admin` also needs the role; `shared` also lets a shared-link visitor in (Immich's
 * `@SharedLinkRoute()`).
 */
export type Access = 'public' | 'user' | 'admin' | 'shared';

/**
 * The route's own rule, once the caller is known (Immich's guard): a valid shared-link key on a
 * route that is not a shared-link route, and a user without the role on an admin route, are 403.
 */
export const requireRoute = (auth: Auth, access: Exclude<Access, 'public'>): void => {
  if (auth.sharedLink && access !== 'shared') throw new Forbidden();
  if (access === 'admin' && !auth.user.isAdmin) throw new Forbidden();
};
