import { type LoginResponse, type LoginResponseV1, mapLogin, mapLoginV1 } from '#shared/dto/v1/user.response.ts';
import { LoginCredentialDto } from '#shared/dto/v1/user.ts';
import { isSecure, loginCookies } from '#shared/http/cookies.ts';
import { asksForJson, clientGeneration } from '#shared/http/generation.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { agentOf } from '#shared/model/session.ts';
import { login } from '#shared/services/auth.service.ts';

/**
 * Both generations' path: v1.100's answer to a v1.100 client the request tells (its web app, its
 * mobile app) and to a request that does not ask for JSON (Immich v1.100's own e2e suite, which
 * asserts the answer key by key; v3's clients always ask for JSON); v3's, which is v1.100's with
 * `isOnboarded`, to every other (docs/immich-compatibility.md, "Paths both generations share").
 */
const answersV1 = (event: Parameters<typeof clientGeneration>[0]): boolean => {
  const generation = clientGeneration(event);
  return generation === 'v1' || (generation === undefined && !asksForJson(event));
};

export const handler = publicHandler(
  { returns: returns<LoginResponse | LoginResponseV1>(), body: LoginCredentialDto, status: 201 },
  async ({ body, event }) => {
    const signIn = await login(body, agentOf(event.headers));
    const result = answersV1(event) ? mapLoginV1(signIn) : mapLogin(signIn);
    return new HttpResponse(result, { cookies: loginCookies(result.accessToken, isSecure(event)) });
  },
);
