/** Immich's fixed OAuth addresses (its server's constants): docs/immich-compatibility.md, "OAuth". */

/** Where Immich's mobile app is sent back to. */
export const mobileRedirect = 'app.immich:///oauth-callback';

/** GET /oauth/mobile-redirect: the same query, handed to the mobile app (a 307 at the edge). */
export const getMobileRedirect = (query: string): string => `${mobileRedirect}?${query}`;

/** Where the web app goes after a logout (Immich's LOGIN_URL). */
export const loginUrl = '/auth/login?autoLaunch=0';
