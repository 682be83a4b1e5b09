import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { oauthStateCookieName, oauthVerifierCookieName, readCookie } from './cookies.ts';
import { asksForJson, clientGeneration } from './generation.ts';

/**
 * The OAuth routes' edge (docs/immich-compatibility.md, "OAuth"): both generations share the paths.
 */

/**
 * Immich v1.100's mobile app (Dart's User-Agent): it keeps no cookie and sends back only the URL,
 * so it gets v1.100's flow (no PKCE, the state not checked against a kept one). Browsers keep the
 * cookies whatever their web app's generation, and 3.x apps send their own proof.
 */
export const isLegacyApp = (event: Pick<APIGatewayProxyEventV2, 'headers'>): boolean => /^Dart\//.test(event.headers['user-agent'] ?? '');

/**
 * v1.100's shapes and statuses for a v1.100 client and for a request that does not ask for JSON
 * (as login: functions/auth/login.ts); v3's for the rest.
 */
export const answersV1 = (event: Pick<APIGatewayProxyEventV2, 'headers'>): boolean => {
  const generation = clientGeneration(event);
  return generation === 'v1' || (generation === undefined && !asksForJson(event));
};

/** The callback's proof: the body's state and verifier (the 3.x mobile app's), else the authorize cookies' (a browser's). */
export const oauthProof = (
  event: Pick<APIGatewayProxyEventV2, 'cookies'>,
  body: { url: string; state?: string | undefined; codeVerifier?: string | undefined },
) => ({
  url: body.url,
  state: body.state ?? readCookie(event, oauthStateCookieName),
  codeVerifier: body.codeVerifier ?? readCookie(event, oauthVerifierCookieName),
});
