import { mapSharedLink, type SharedLinkResponseDto } from '#shared/dto/v1/shared-link.response.ts';
import { SharedLinkPasswordDto } from '#shared/dto/v1/shared-link.ts';
import { isSecure, readCookie, sharedLinkTokenCookie, sharedLinkTokenCookieName } from '#shared/http/cookies.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getMySharedLink } from '#shared/services/shared-link.service.ts';

// The one route a shared-link key opens (`?key=` or x-immich-share-key); a user token gets 403.
// The tokens a password earned come from the query or the cookie, and go back as the cookie.
export const handler = sharedHandler(
  { access: 'link-password', returns: returns<SharedLinkResponseDto>(), query: SharedLinkPasswordDto },
  async ({ auth, query, event }) => {
    const shown = await getMySharedLink(auth, {
      password: query.password,
      token: query.token ?? readCookie(event, sharedLinkTokenCookieName),
    });
    const link = mapSharedLink(shown, { withExif: shown.link.showExif });
    return new HttpResponse(link, shown.token ? { cookies: [sharedLinkTokenCookie(shown.token, isSecure(event))] } : {});
  },
);
