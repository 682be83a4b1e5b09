import { authenticate, type RouteRule } from '../auth/authenticate.ts';
import { unlockLink } from '../auth/link-unlock.ts';
import type { Auth } from '../model/user.ts';
import { type CredentialSource, readCredentials } from './credentials.ts';

/**
 * The caller of a request that is not a Lambda event (the ingress, infra/ingress/), resolved as the
 * routes resolve theirs: its credentials read from the headers, query and cookies
 * (credentials.ts), checked against the route's rule, a password link's visitor with the link
 * unlock `sharedHandler` uses (shared-handler.ts). Throws the same errors, mapped by errors.ts.
 */
export const authenticateRequest = (source: CredentialSource, rule: RouteRule): Promise<Auth> =>
  authenticate(readCredentials(source), rule, unlockLink);
