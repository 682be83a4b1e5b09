import { mapSharedLinkV3, SharedLinkPasswordDtoV3, type SharedLinkResponseDto } from '#shared/dto/v3/shared-link.ts';
import { isSecure, readCookie, sharedLinkTokenCookie, sharedLinkTokenCookieName } from '#shared/http/cookies.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { getMySharedLink } from '#shared/services/shared-link.service.ts';

// A visitor's view of the link the key names, as v1.100's GET /shared-link/me (a password, or the token it earned, in the cookie).
export const handler = sharedHandler(
  { generation: 'v3', access: 'link-password', returns: returns<SharedLinkResponseDto>(), query: SharedLinkPasswordDtoV3 },
  async ({ auth, query, event }) => {
    const shown = await getMySharedLink(auth, {
      password: query.password,
      token: query.token ?? readCookie(event, sharedLinkTokenCookieName),
    });
    const link = mapSharedLinkV3(shown, { withExif: shown.link.showExif });
    return new HttpResponse(link, shown.token ? { cookies: [sharedLinkTokenCookie(shown.token, isSecure(event))] } : {});
  },
);
