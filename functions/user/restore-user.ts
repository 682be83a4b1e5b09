import { IdParams } from '#shared/dto/common.ts';
import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { restoreUser } from '#shared/services/user.service.ts';
import { setLibraryHidden } from '#shared/services/user-library.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'adminUser.delete', returns: returns<UserResponse>(), params: IdParams, status: 201 },
  async ({ params }) => {
    const user = await restoreUser(params.id);
    // Their partners and album members see what they shared again.
    await setLibraryHidden(user.id, false);
    return mapUser(user);
  },
);
