import { getMobileRedirect } from '#shared/domain/oauth.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { RawResponse } from '#shared/http/response.ts';

/**
 * Both generations' `redirectOAuthToMobile`: a 307 to `app.immich:///oauth-callback` with the same
 * query, where the provider sent the browser back (the `mobileRedirectUri` override's target).
 */
export const handler = publicHandler({ returns: returns<RawResponse>() }, ({ event }) => {
  return new RawResponse({ statusCode: 307, headers: { location: getMobileRedirect(event.rawQueryString ?? '') }, body: '' });
});
