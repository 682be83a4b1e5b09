import { OAuthCallbackDto } from '#shared/dto/common/oauth.ts';
import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUserAdminV3, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { answersV1, isLegacyApp, oauthProof } from '#shared/http/oauth.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { link } from '#shared/services/oauth.service.ts';

/** Both generations' `linkOAuthAccount`: v1.100's user and 201, v3's admin shape and 200. */
export const handler = httpHandler(
  { access: 'user', returns: returns<UserResponse | UserAdminResponseDto>(), body: OAuthCallbackDto },
  async ({ auth, body, event }) => {
    const user = await link(auth, oauthProof(event, body), isLegacyApp(event));
    return answersV1(event) ? new HttpResponse(mapUser(user), { status: 201 }) : new HttpResponse(mapUserAdminV3(user), { status: 200 });
  },
);
