/**
 * Immich's mobile app's OAuth redirect, in a module of its own: GET /oauth/mobile-redirect's
 * function (`data: 'none'`, no table) imports only this, not the OAuth service, whose repositories
 * need TABLE_NAME at import (deployed, that function's cold start failed: test/deployed/oauth.test.ts).
 */

/** Where Immich's mobile app is sent back to (`app.immich:///oauth-callback`). */
export const mobileRedirect = 'app.immich:///oauth-callback';

/** GET /oauth/mobile-redirect: the same query, handed to the mobile app (a 307 at the edge). */
export const getMobileRedirect = (query: string): string => `${mobileRedirect}?${query}`;
