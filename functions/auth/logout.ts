import { clearedLoginCookies } from '#shared/http/cookies.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { type LogoutResponse, logout } from '#shared/services/auth.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<LogoutResponse>() },
  async ({ auth }) => new HttpResponse(await logout(auth), { cookies: clearedLoginCookies() }),
);
