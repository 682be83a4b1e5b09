import { OAuthConfigDto } from '#shared/dto/common/oauth.ts';
import { isSecure, oauthCookies } from '#shared/http/cookies.ts';
import { isLegacyApp } from '#shared/http/oauth.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { authorize } from '#shared/services/oauth.service.ts';

/** Both generations' `startOAuth`: the provider's URL; the state and verifier in Immich's cookies for the callback. */
export const handler = publicHandler(
  { returns: returns<{ url: string }>(), body: OAuthConfigDto, status: 201 },
  async ({ body, event }) => {
    const legacy = isLegacyApp(event);
    const { url, state, codeVerifier } = await authorize(body, legacy);
    return new HttpResponse({ url }, { cookies: legacy ? [] : oauthCookies(state, codeVerifier, isSecure(event)) });
  },
);
