import { type LoginResponse, mapLogin } from '#shared/dto/v1/user.response.ts';
import { LoginCredentialDto } from '#shared/dto/v1/user.ts';
import { isSecure, loginCookies } from '#shared/http/cookies.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { agentOf } from '#shared/model/session.ts';
import { login } from '#shared/services/auth.service.ts';

export const handler = publicHandler(
  { returns: returns<LoginResponse>(), body: LoginCredentialDto, status: 201 },
  async ({ body, event }) => {
    const result = mapLogin(await login(body, agentOf(event.headers)));
    return new HttpResponse(result, { cookies: loginCookies(result.accessToken, isSecure(event)) });
  },
);
