import { mapUserAdminV3, type UserAdminResponseDto, UserAdminSearchDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { searchUsersAdmin } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.read',
    returns: returns<UserAdminResponseDto[]>(),
    query: UserAdminSearchDto,
  },
  async ({ query }) => (await searchUsersAdmin(query)).map(mapUserAdminV3),
);
