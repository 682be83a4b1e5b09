import { IdParams } from '#shared/dto/common.ts';
import { mapUserAdminV3, UserAdminDeleteDto, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { removeUser } from '#shared/services/user/removal.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.delete',
    returns: returns<UserAdminResponseDto>(),
    params: IdParams,
    body: UserAdminDeleteDto,
  },
  async ({ params, body }) => mapUserAdminV3(await removeUser(params.id, body.force ?? false)),
);
