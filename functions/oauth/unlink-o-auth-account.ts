import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUserAdminV3, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { answersV1 } from '#shared/http/oauth.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { unlink } from '#shared/services/oauth-unlink.service.ts';

/** Both generations' `unlinkOAuthAccount`: v1.100's user and 201, v3's admin shape and 200. */
export const handler = httpHandler({ access: 'user', returns: returns<UserResponse | UserAdminResponseDto>() }, async ({ auth, event }) => {
  const user = await unlink(auth);
  return answersV1(event) ? new HttpResponse(mapUser(user), { status: 201 }) : new HttpResponse(mapUserAdminV3(user), { status: 200 });
});
