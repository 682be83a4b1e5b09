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

/** The three Set-Cookie values of a password login, byte for byte as Immich writes them. */
export const loginCookies = (accessToken: string, secure: boolean): string[] => {
  const s = secure ? 'Secure; ' : '';
  return [
    `immich_access_token=${accessToken}; HttpOnly; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`,
    `immich_auth_type=password; HttpOnly; ${s}Path=/; Max-Age=${maxAge}; SameSite=Lax;`,
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
