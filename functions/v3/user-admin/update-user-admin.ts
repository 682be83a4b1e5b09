import { IdParams } from '#shared/dto/common.ts';
import { mapUserAdminV3, type UserAdminResponseDto, UserAdminUpdateDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateUserInfo } from '#shared/services/user/user.service.ts';

// v1.100's PUT /user for the user the path names, with the same rules.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.update',
    returns: returns<UserAdminResponseDto>(),
    params: IdParams,
    body: UserAdminUpdateDto,
  },
  async ({ auth, params, body }) => mapUserAdminV3(await updateUserInfo(auth, { ...body, id: params.id })),
);
