import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Immich's login cookies last 400 days. */
const maxAge = 34_560_000;

/** HTTPS as the client saw it: API Gateway (always HTTPS) sets x-forwarded-proto. */
export const isSecure = (event: APIGatewayProxyEventV2): boolean =>
  (event.headers?.['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https';

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
