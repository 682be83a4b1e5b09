import { type RouteRule, requireRoute } from '../access/route.ts';
import { hashSecret, hashSharedLinkKey } from '../core/crypto.ts';
import { Unauthenticated } from '../core/errors.ts';
import * as apiKeyRepo from '../db/api-key.repository.ts';
import * as sessionRepo from '../db/session.repository.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import { limits } from '../model/limits.ts';
import { appVersionOf, type SessionAgent, type SessionRecord } from '../model/session.ts';
import type { Auth } from '../model/user.ts';

export type { ApiKeyPermission } from '../access/api-key-permission.ts';
export type { Access, RouteRule } from '../access/route.ts';

/**
 * The one credential a request presents, as the HTTP edge found it (shared/http/credentials.ts);
 * a visitor's key comes with the tokens their link passwords earned (the cookie), if any.
 */
export type Credentials =
  | { kind: 'shareKey' | 'shareSlug'; secret: string; linkTokens?: string }
  | { kind: 'session'; secret: string; agent?: SessionAgent }
  | { kind: 'apiKey'; secret: string };

/**
 * Whether a visitor's tokens prove a password link's password (shared/auth/link-unlock.ts). Only
 * the routes a visitor may call pass it: it reads the deployment's link secret, whose Secrets
 * Manager client the other routes' bundles then leave out (docs/benchmarks.md).
 */
export type LinkUnlock = (tokens: string | undefined, linkId: string, passwordHash: string) => Promise<boolean>;

/** How long a used unlock is kept beyond the request, once less than that is left (Immich's five minutes). */
const pinGraceMs = 5 * 60_000;

/**
 * A session unlocked with the PIN code (Immich's elevated permission) until its time, read with the
 * session. Used with less than five minutes left, it stays unlocked five minutes from now, as
 * Immich extends it (docs/immich-compatibility.md, "The locked folder"): one conditional
 * UpdateItem, only then.
 */
const elevation = async (tokenHash: string, pinExpiresAt: string | null): Promise<{ elevatedUntil?: string }> => {
  const now = Date.now();
  const until = pinExpiresAt ? Date.parse(pinExpiresAt) : Number.NaN;
  if (!pinExpiresAt || !(until > now)) return {};
  if (until - now >= pinGraceMs) return { elevatedUntil: pinExpiresAt };
  const extended = new Date(now + pinGraceMs).toISOString();
  return { elevatedUntil: (await sessionRepo.extendSessionPin(tokenHash, pinExpiresAt, extended)).ok ? extended : pinExpiresAt };
};

/** How long a session's device and last use stand before a request refreshes them (Immich's hour). */
const refreshAfterMs = 3_600_000;

/**
 * Immich's refresh of a session as it is used: a request more than an hour after the last
 * refresh, or naming another app version (the app updated; a widget's request beside the app's),
 * records its device, app version and time (docs/immich-compatibility.md, "Sessions and their
 * devices"): one conditional UpdateItem, at most once an hour a session otherwise.
 */
const refreshUse = async (session: SessionRecord, agent: SessionAgent | undefined): Promise<void> => {
  const now = Date.now();
  const used = agent ?? { userAgent: '', deviceModel: '', deviceType: '' };
  const appVersion = appVersionOf(used.userAgent);
  if (now - Date.parse(session.updatedAt) <= refreshAfterMs && appVersion === session.appVersion) return;
  await sessionRepo.refreshSessionUse(session.tokenHash, session.updatedAt, {
    updatedAt: new Date(now).toISOString(),
    appVersion,
    agent: used,
  });
};

/**
 * Resolves the caller with one GetItem (by SHA-256 of the presented secret), then applies the
 * route's rule (shared/access/route.ts: access level, an API key's permission): unauthenticated
 * without valid credentials. A link's key on a route that takes none is refused there (403)
 * whatever its password. A session's item is also written when its use is due to be recorded or
 * its PIN unlock to be kept (above), as Immich's `validateSession` writes it.
 */
export const authenticate = async (credentials: Credentials | undefined, rule: RouteRule, unlock?: LinkUnlock): Promise<Auth> => {
  const { access } = rule;
  if (!credentials) throw new Unauthenticated('Authentication required');
  let auth: Auth;
  switch (credentials.kind) {
    case 'shareKey':
    case 'shareSlug': {
      // A link's custom URL (Immich v3's slug) names the link's key item: one GetItem more. No
      // slug is longer than a link may have (and a longer one could not be a key to look up).
      const isSlug = credentials.kind === 'shareSlug';
      const bySlug =
        isSlug && credentials.secret.length <= limits.keyValue ? await sharedLinkRepo.getBySlug(credentials.secret) : undefined;
      const keyHash = credentials.kind === 'shareKey' ? hashSharedLinkKey(credentials.secret) : bySlug?.keyHash;
      const link = keyHash ? await sharedLinkRepo.getByKeyHash(keyHash) : undefined;
      if (!link?.userActive || (link.expiresAt !== null && new Date(link.expiresAt).getTime() <= Date.now()))
        throw new Unauthenticated(credentials.kind === 'shareKey' ? 'Invalid share key' : 'Invalid share slug');
      // A key item written before it carried the password: the link itself has it.
      const passwordHash =
        link.passwordHash === undefined ? ((await sharedLinkRepo.get(link.userId, link.linkId))?.passwordHash ?? null) : link.passwordHash;
      const visited = access === 'shared' || access === 'link-password';
      if (visited && !unlock) throw new Error(`A route with access '${access}' needs the link unlock (sharedHandler)`);
      const unlocked = !visited || passwordHash === null || (await unlock?.(credentials.linkTokens, link.linkId, passwordHash)) === true;
      auth = {
        user: { id: link.userId, email: link.email, isAdmin: link.isAdmin },
        sharedLink: { id: link.linkId, ...(unlocked ? {} : { locked: true as const }) },
      };
      break;
    }
    case 'session': {
      const session = await sessionRepo.get(hashSecret(credentials.secret));
      // A deleted user's sessions let no one in (Immich no longer finds the user), until a restore.
      if (!session?.userActive) throw new Unauthenticated('Invalid user token');
      await refreshUse(session, credentials.agent);
      auth = {
        user: { id: session.userId, email: session.email, isAdmin: session.isAdmin },
        sessionHash: session.tokenHash,
        sessionId: session.id,
        ...(await elevation(session.tokenHash, session.pinExpiresAt)),
        ...(session.isPendingSyncReset ? { syncResetPending: true as const } : {}),
      };
      break;
    }
    case 'apiKey': {
      const key = await apiKeyRepo.getByHash(hashSecret(credentials.secret));
      if (!key?.userActive) throw new Unauthenticated('Invalid API key');
      auth = { user: { id: key.userId, email: key.email, isAdmin: key.isAdmin }, apiKey: { id: key.id, permissions: key.permissions } };
      break;
    }
  }
  requireRoute(auth, rule);
  return auth;
};
