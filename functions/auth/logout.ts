import type { LogoutResponse } from '#shared/dto/v1/user.response.ts';
import { clearedLoginCookies, readCookie } from '#shared/http/cookies.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { logout } from '#shared/services/auth.service.ts';
import { logoutRedirect } from '#shared/services/oauth.service.ts';

/** Both generations: the session ends; an OAuth sign-in's logout sends the browser to the provider's end-session endpoint. */
export const handler = httpHandler({ publish, access: 'user', returns: returns<LogoutResponse>() }, async ({ auth, event }) => {
  await logout(auth);
  const redirectUri = await logoutRedirect(readCookie(event, 'immich_auth_type'));
  return new HttpResponse({ successful: true, redirectUri }, { cookies: clearedLoginCookies() });
});
