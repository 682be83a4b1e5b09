import { mapSharedLinkV3, SharedLinkLoginDto, SharedLinkLoginQueryDto, type SharedLinkResponseDto } from '#shared/dto/v3/shared-link.ts';
import { isSecure, readCookie, sharedLinkTokenCookie, sharedLinkTokenCookieName } from '#shared/http/cookies.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { sharedHandler } from '#shared/http/shared-handler.ts';
import { loginToSharedLink } from '#shared/services/shared-link.service.ts';

// v3's web app proves a link's password here, then reads the link with the cookie this sets (as v1.100's GET /shared-link/me?password=).
export const handler = sharedHandler(
  {
    generation: 'v3',
    access: 'link-password',
    query: SharedLinkLoginQueryDto,
    body: SharedLinkLoginDto,
    returns: returns<SharedLinkResponseDto>(),
    status: 201,
  },
  async ({ auth, body, event }) => {
    const shown = await loginToSharedLink(auth, body.password, readCookie(event, sharedLinkTokenCookieName));
    const link = mapSharedLinkV3(shown, { withExif: shown.link.showExif });
    return new HttpResponse(link, shown.token ? { cookies: [sharedLinkTokenCookie(shown.token, isSecure(event))] } : {});
  },
);
