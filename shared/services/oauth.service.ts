import { Invalid, Unauthenticated } from '../core/errors.ts';
import * as userRepo from '../db/user.repository.ts';
import { loginUrl } from '../domain/oauth.ts';
import type { SystemConfig } from '../model/config.ts';
import type { SessionAgent, SignIn } from '../model/session.ts';
import type { Auth, UserRecord } from '../model/user.ts';
import { authorizationUrl, endSessionEndpoint, exchangeCode, type OAuthProfile, skipStateCheck } from '../storage/oauth-provider.ts';
import { startSession } from './auth.service.ts';
import { readOAuthConfig } from './oauth-config.ts';
import { registerOAuthUser, setOAuthId } from './user/user.service.ts';

/**
 * Immich's OAuth sign-in (its AuthService's oauth methods and OAuthRepository, v3.1):
 * docs/immich-compatibility.md, "OAuth". The provider is reached through openid-client
 * (shared/storage/oauth-provider.ts); a sign-in ends as a password login does (`startSession`).
 */

const GiB = 1024 ** 3;

/**
 * The app's own redirect (`app.immich:///oauth-callback`) replaced by `mobileRedirectUri` when the
 * override is on, for providers that refuse custom schemes (Immich's resolveRedirectUri).
 */
const resolveRedirectUri = ({ mobileOverrideEnabled, mobileRedirectUri }: SystemConfig['oauth'], url: string): string =>
  mobileOverrideEnabled && mobileRedirectUri ? url.replace(/app\.immich:\/+oauth-callback/, () => mobileRedirectUri) : url;

const enabledOAuth = async (): Promise<SystemConfig['oauth']> => {
  const { oauth } = await readOAuthConfig();
  if (!oauth.enabled) throw new Invalid('OAuth is not enabled');
  return oauth;
};

/**
 * POST /oauth/authorize: the provider's URL, and the state and PKCE verifier the web app's cookies
 * keep (none when the client made its own challenge: the 3.x mobile app). `legacy`: v1.100's
 * mobile app, which keeps neither and sends back only the URL, gets v1.100's flow (no PKCE).
 */
export const authorize = async (
  input: { redirectUri: string; state?: string | undefined; codeChallenge?: string | undefined },
  legacy = false,
): Promise<{ url: string; state: string; codeVerifier: string | null }> => {
  const oauth = await enabledOAuth();
  return authorizationUrl(oauth, resolveRedirectUri(oauth, input.redirectUri), {
    state: input.state,
    codeChallenge: input.codeChallenge,
    pkce: !legacy,
  });
};

/** The callback's state and verifier: the body's (the mobile app's), else the cookies' (the web app's). */
export interface OAuthProof {
  url: string;
  state?: string | undefined;
  codeVerifier?: string | undefined;
}

const profileOf = async (oauth: SystemConfig['oauth'], proof: OAuthProof, legacy: boolean): Promise<OAuthProfile> => {
  const url = resolveRedirectUri(oauth, proof.url);
  if (legacy && !proof.state && !proof.codeVerifier) {
    // v1.100's mobile app: v1.100 checked the state against the URL's own, and had no PKCE.
    return (await exchangeCode(oauth, url, { expectedState: skipStateCheck, codeVerifier: undefined })).profile;
  }
  if (!proof.state) throw new Invalid('OAuth state is missing');
  if (!proof.codeVerifier) throw new Invalid('OAuth code verifier is missing');
  return (await exchangeCode(oauth, url, { expectedState: proof.state, codeVerifier: proof.codeVerifier })).profile;
};

const claim = <T>(profile: OAuthProfile, key: string, fallback: T, isValid: (value: unknown) => boolean): T => {
  const value = profile[key];
  return isValid(value) ? (value as T) : fallback;
};

const roleOf = (profile: OAuthProfile, roleClaim: string): 'admin' | 'user' | undefined => {
  const value = profile[roleClaim];
  const roles = Array.isArray(value) ? value : [value];
  if (roles.includes('admin')) return 'admin';
  if (roles.includes('user')) return 'user';
  return undefined;
};

/** The user an OAuth profile signs in: by its `sub`, else by its email (then linked), else registered. */
const userFor = async (oauth: SystemConfig['oauth'], profile: OAuthProfile): Promise<UserRecord> => {
  const email = typeof profile.email === 'string' ? profile.email.trim().toLowerCase() : undefined;
  // A deleted user signs no one in, and is linked to nothing meanwhile.
  const refuseDeleted = (user: UserRecord): UserRecord => {
    if (user.deletedAt || user.status !== 'active') throw new Invalid('OAuth authentication failed');
    return user;
  };
  const linked = await userRepo.getByOAuthId(profile.sub);
  if (linked) return refuseDeleted(linked);
  if (email) {
    const byEmail = await userRepo.getByEmail(email);
    if (byEmail) {
      refuseDeleted(byEmail);
      // Linked to another OAuth account already: Immich's answer, which names neither.
      if (byEmail.oauthId) throw new Invalid('OAuth authentication failed');
      return setOAuthId(byEmail, profile.sub);
    }
  }
  if (!oauth.autoRegister) throw new Invalid('OAuth authentication failed');
  if (!email) throw new Invalid('OAuth profile does not have an email address');
  const storageLabel = claim(profile, oauth.storageLabelClaim, '', (value) => typeof value === 'string');
  const quota = claim<number | null>(
    profile,
    oauth.storageQuotaClaim,
    oauth.defaultStorageQuota,
    (value) => value !== null && Number(value) >= 0,
  );
  const name = [profile.given_name, profile.family_name].filter(Boolean).join(' ');
  return registerOAuthUser({
    email,
    name: profile.name || name || profile.preferred_username || email,
    oauthId: profile.sub,
    quotaSizeInBytes: quota === null ? null : Math.round(Number(quota) * GiB),
    storageLabel: storageLabel || null,
    isAdmin: roleOf(profile, oauth.roleClaim) === 'admin',
    shouldChangePassword: false,
  });
};

/**
 * POST /oauth/callback: the code exchanged, the user found or registered, a new session as a
 * password login makes (Immich's callback).
 */
export const callback = async (proof: OAuthProof, agent: SessionAgent, legacy = false): Promise<SignIn> => {
  const oauth = await enabledOAuth();
  const profile = await profileOf(oauth, proof, legacy);
  return startSession(await userFor(oauth, profile), agent);
};

/** POST /oauth/link: the caller's account linked to the OAuth account the code proves (one user per account). */
export const link = async (auth: Auth, proof: OAuthProof, legacy = false): Promise<UserRecord> => {
  const oauth = await enabledOAuth();
  const { sub } = await profileOf(oauth, proof, legacy);
  const user = await userRepo.get(auth.user.id);
  if (!user) throw new Unauthenticated();
  const linked = await userRepo.getByOAuthId(sub);
  if (linked && linked.id !== user.id) throw new Invalid('This OAuth account has already been linked to another user.');
  return setOAuthId(user, sub);
};

/**
 * POST /auth/logout's `redirectUri` (Immich's getLogoutEndpoint): for a session an OAuth sign-in
 * made (`immich_auth_type=oauth`) while OAuth is on, the provider's end-session endpoint (the
 * setting, else the discovered one), so the provider signs the browser out too; else the login
 * page. A provider that does not answer costs the logout nothing: the login page then.
 */
export const logoutRedirect = async (authType: string | undefined): Promise<string> => {
  if (authType !== 'oauth') return loginUrl;
  const { oauth } = await readOAuthConfig();
  if (!oauth.enabled) return loginUrl;
  const endpoint = oauth.endSessionEndpoint || (await endSessionEndpoint(oauth).catch(() => undefined));
  if (!endpoint) return loginUrl;
  try {
    return new URL(endpoint).href;
  } catch {
    return loginUrl;
  }
};
