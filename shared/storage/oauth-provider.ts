import * as client from 'openid-client';
import { DomainError, Invalid } from '../core/errors.ts';
import { log } from '../core/log.ts';

/** The `oauth` settings the provider is reached with (shared/model/config.ts). */
export interface OAuthProviderSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  prompt: string;
  signingAlgorithm: string;
  profileSigningAlgorithm: string;
  tokenEndpointAuthMethod: string;
  /** Milliseconds, as Immich's setting is named and defaulted (30 000). */
  timeout: number;
  allowInsecureRequests: boolean;
}

/** The claims an OAuth sign-in reads: the ID token's when it carries the email, else the userinfo endpoint's. */
export type OAuthProfile = client.UserInfoResponse;

/** The provider did not answer, or answered what is not OpenID discovery (Immich: `Error in OAuth discovery`). */
class ProviderUnavailable extends DomainError {
  constructor(reason: string) {
    super('upstream', `Error in OAuth discovery: ${reason}`);
  }
}

// Discovery per warm container, keyed by everything the client is built from (the secret as a
// hash would be no safer: the key never leaves memory). Bounded: a settings change adds one entry.
const maxCached = 4;
const clients = new Map<string, Promise<client.Configuration>>();

const authMethod = (method: string, secret: string): client.ClientAuth => {
  if (!secret) return client.None();
  if (method === 'client_secret_basic') return client.ClientSecretBasic(secret);
  if (method === 'client_secret_post') return client.ClientSecretPost(secret);
  return client.None();
};

const discover = async (settings: OAuthProviderSettings): Promise<client.Configuration> => {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuerUrl);
  } catch {
    throw new ProviderUnavailable(`invalid issuer URL ${JSON.stringify(settings.issuerUrl)}`);
  }
  try {
    return await client.discovery(
      issuer,
      settings.clientId,
      {
        client_secret: settings.clientSecret || undefined,
        response_types: ['code'],
        userinfo_signed_response_alg: settings.profileSigningAlgorithm === 'none' ? undefined : settings.profileSigningAlgorithm,
        id_token_signed_response_alg: settings.signingAlgorithm,
      },
      authMethod(settings.tokenEndpointAuthMethod, settings.clientSecret),
      {
        execute: settings.allowInsecureRequests ? [client.allowInsecureRequests] : [],
        // openid-client counts seconds; Immich's setting is milliseconds (docs/immich-compatibility.md, "OAuth").
        timeout: Math.max(1, Math.ceil(settings.timeout / 1000)),
      },
    );
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    log.warn('OAuth discovery failed', { issuer: settings.issuerUrl, reason });
    throw new ProviderUnavailable(reason);
  }
};

const configurationFor = (settings: OAuthProviderSettings): Promise<client.Configuration> => {
  const key = JSON.stringify([
    settings.issuerUrl,
    settings.clientId,
    settings.clientSecret,
    settings.signingAlgorithm,
    settings.profileSigningAlgorithm,
    settings.tokenEndpointAuthMethod,
    settings.timeout,
    settings.allowInsecureRequests,
  ]);
  let found = clients.get(key);
  if (!found) {
    found = discover(settings);
    // A failed discovery is not kept: the next request asks the provider again.
    found.catch(() => clients.delete(key));
    if (clients.size >= maxCached) clients.delete(clients.keys().next().value as string);
    clients.set(key, found);
  }
  return found;
};

/** Forgets every discovered provider (tests that restart theirs). */
export const forgetProviders = (): void => clients.clear();

/**
 * The provider's authorization URL (Immich's OAuthRepository.authorize): PKCE when the provider
 * supports it, with the client's own challenge when it sent one (the 3.x mobile app keeps its
 * verifier), else a new verifier returned for the cookie; a new state unless the client sent one.
 */
export const authorizationUrl = async (
  settings: OAuthProviderSettings,
  redirectUri: string,
  options: { state?: string | undefined; codeChallenge?: string | undefined; pkce?: boolean },
): Promise<{ url: string; state: string; codeVerifier: string | null }> => {
  const config = await configurationFor(settings);
  const state = options.state ?? client.randomState();
  let codeVerifier: string | null = null;
  let codeChallenge = options.codeChallenge;
  if (!codeChallenge) {
    codeVerifier = client.randomPKCECodeVerifier();
    codeChallenge = await client.calculatePKCECodeChallenge(codeVerifier);
  }
  const params: Record<string, string> = { redirect_uri: redirectUri, scope: settings.scope, state };
  if (settings.prompt) params.prompt = settings.prompt;
  if (options.pkce !== false && config.serverMetadata().supportsPKCE()) {
    params.code_challenge = codeChallenge;
    params.code_challenge_method = 'S256';
  }
  return { url: client.buildAuthorizationUrl(config, params).href, state, codeVerifier };
};

/**
 * Exchanges the code the callback URL carries (Immich's getProfileAndOAuthSid): the state must be
 * the one expected (or, for v1.100's mobile app, which keeps none, unchecked), the PKCE verifier
 * the challenge's, the ID token signed as the settings say and current. Any refusal (a replayed
 * code, a foreign state, a bad signature) is Immich's `OAuth login failed`, as a 400; the reason
 * is logged, never a token or the secret.
 */
export const exchangeCode = async (
  settings: OAuthProviderSettings,
  callbackUrl: string,
  checks: { expectedState: string | typeof client.skipStateCheck; codeVerifier: string | undefined },
): Promise<{ profile: OAuthProfile; sid?: string; idToken?: string }> => {
  const config = await configurationFor(settings);
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw new Invalid('OAuth login failed');
  }
  try {
    const pkceCodeVerifier = config.serverMetadata().supportsPKCE() ? checks.codeVerifier : undefined;
    const tokens = await client.authorizationCodeGrant(config, url, { expectedState: checks.expectedState, pkceCodeVerifier });
    const claims = tokens.claims();
    const profile: OAuthProfile =
      claims && 'email' in claims
        ? (claims as OAuthProfile)
        : await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    if (!profile.sub) throw new Error('Unexpected profile response, no `sub`');
    return {
      profile,
      ...(typeof claims?.sid === 'string' ? { sid: claims.sid } : {}),
      ...(tokens.id_token ? { idToken: tokens.id_token } : {}),
    };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const hint = reason.includes('unexpected JWT alg received')
      ? 'Algorithm mismatch. Make sure the signing algorithm is set correctly in the OAuth settings.'
      : undefined;
    log.warn('OAuth login failed', { reason, ...(hint ? { hint } : {}) });
    throw new Invalid('OAuth login failed');
  }
};

/** The provider's end-session endpoint, for an OAuth session's logout (Immich's getLogoutEndpoint). */
export const endSessionEndpoint = async (settings: OAuthProviderSettings): Promise<string | undefined> =>
  (await configurationFor(settings)).serverMetadata().end_session_endpoint;

export { skipStateCheck } from 'openid-client';
