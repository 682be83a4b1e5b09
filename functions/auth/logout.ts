import { type LogoutResponse, logoutResponse } from '#shared/dto/v1/user.response.ts';
import { clearedLoginCookies } from '#shared/http/cookies.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { logout } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ publish, access: 'user', returns: returns<LogoutResponse>() }, async ({ auth }) => {
  await logout(auth);
  return new HttpResponse(logoutResponse, { cookies: clearedLoginCookies() });
});
