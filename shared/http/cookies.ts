import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * Cookies, read and written in one place: the one parser of request cookies and the builders of
 * every Set-Cookie value the API sends.
 */

/** Immich's login cookies last 400 days. */
const maxAge = 34_560_000;

/** HTTPS as the client saw it: API Gateway (always HTTPS) sets x-forwarded-proto. */
export const isSecure = (event: APIGatewayProxyEventV2): boolean =>
  (event.headers?.['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https';

/** The value of a request cookie (URI-decoded), or undefined when absent, empty or malformed. */
export const readCookie = (event: Pick<APIGatewayProxyEventV2, 'cookies'>, name: string): string | undefined => {
  for (const entry of event.cookies ?? []) {
    const separator = entry.indexOf('=');
    if (separator <= 0 || entry.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(entry.slice(separator + 1).trim()) || undefined;
    } catch {
      // A malformed escape (`%E0%A4%A`) is no credential at all.
      return undefined;
    }
  }
  return undefined;
};

/** The three Set-Cookie values of a login (a password's, or OAuth's callback), byte for byte as Immich writes them. */
export const loginCookies = (accessToken: string, secure: boolean, authType: 'password' | 'oauth' = 'password'): string[] => {
  const s = secure ? 'Secure; ' : '';
  return [
    `immich_access_token=${accessToken}; HttpOnly; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`,
    `immich_auth_type=${authType}; HttpOnly; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`,
    `immich_is_authenticated=true; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`,
  ];
};

/** What Express's clearCookie writes for each of them on logout. */
export const clearedLoginCookies = (): string[] =>
  ['immich_access_token', 'immich_auth_type', 'immich_is_authenticated'].map(
    (name) => `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
  );

/** The cookie that keeps the tokens a shared link's password earned (one day, as Immich). */
export const sharedLinkTokenCookieName = 'immich_shared_link_token';

/** `Secure` behind HTTPS, as the login cookies (`isSecure`) and as Immich sets every cookie of its. */
export const sharedLinkTokenCookie = (token: string, secure: boolean): string =>
  `${sharedLinkTokenCookieName}=${encodeURIComponent(token)}; HttpOnly; ${secure ? 'Secure; ' : ''}Path=/; Max-Age=86400; SameSite=Lax;`;

/** The cookies that keep an OAuth sign-in's state and PKCE verifier from authorize to callback (Immich's). */
export const oauthStateCookieName = 'immich_oauth_state';
export const oauthVerifierCookieName = 'immich_oauth_code_verifier';

/** Set by POST /oauth/authorize as Immich sets them (its login cookies' options); the verifier only when the server made it. */
export const oauthCookies = (state: string, codeVerifier: string | null, secure: boolean): string[] => {
  const s = secure ? 'Secure; ' : '';
  const cookie = (name: string, value: string) =>
    `${name}=${encodeURIComponent(value)}; HttpOnly; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`;
  return [cookie(oauthStateCookieName, state), ...(codeVerifier ? [cookie(oauthVerifierCookieName, codeVerifier)] : [])];
};

/** What Express's clearCookie writes for them once the callback used them. */
export const clearedOAuthCookies = (): string[] =>
  [oauthStateCookieName, oauthVerifierCookieName].map((name) => `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
