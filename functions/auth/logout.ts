import { clearedLoginCookies } from '#shared/http/cookies.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { logout } from '#shared/services/auth.service.ts';

export const handler = httpHandler({ access: 'user' }, async ({ auth }) =>
  new HttpResponse(await logout(auth), { cookies: clearedLoginCookies() }),
);
