import { IdParams } from '#shared/dto/common.ts';
import { mapUser, type UserResponse } from '#shared/dto/v1/user.response.ts';
import { DeleteUserDto } from '#shared/dto/v1/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { endSessionsOf } from '#shared/services/upload-session-end.ts';
import { deleteUser } from '#shared/services/user.service.ts';
import { setLibraryHidden } from '#shared/services/user-library.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'adminUser.delete', returns: returns<UserResponse>(), params: IdParams, body: DeleteUserDto },
  async ({ params, body }) => {
    const user = await deleteUser(params.id, body.force ?? false);
    // What they shared is hidden from partners and album members, and their upload sessions end
    // (the part URLs they hold take no more bytes).
    await Promise.all([setLibraryHidden(user.id, true), endSessionsOf(user)]);
    return mapUser(user);
  },
);
