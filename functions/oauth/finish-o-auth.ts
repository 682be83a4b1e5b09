import { OAuthCallbackDto } from '#shared/dto/common/oauth.ts';
import { type LoginResponse, type LoginResponseV1, mapLogin, mapLoginV1 } from '#shared/dto/v1/user.response.ts';
import { clearedOAuthCookies, isSecure, loginCookies } from '#shared/http/cookies.ts';
import { answersV1, isLegacyApp, oauthProof } from '#shared/http/oauth.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { agentOf } from '#shared/model/session.ts';
import { callback } from '#shared/services/oauth.service.ts';

/** Both generations' `finishOAuth`: signs the user in as a password login does, with `immich_auth_type=oauth`. */
export const handler = publicHandler(
  { returns: returns<LoginResponse | LoginResponseV1>(), body: OAuthCallbackDto, status: 201 },
  async ({ body, event }) => {
    const signIn = await callback(oauthProof(event, body), agentOf(event.headers), isLegacyApp(event));
    const result = answersV1(event) ? mapLoginV1(signIn) : mapLogin(signIn);
    return new HttpResponse(result, { cookies: [...clearedOAuthCookies(), ...loginCookies(result.accessToken, isSecure(event), 'oauth')] });
  },
);
