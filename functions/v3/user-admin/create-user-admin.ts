import { mapUserAdminV3, UserAdminCreateDto, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createUser } from '#shared/services/user/user.service.ts';

// v1.100's POST /user under v3's name and shape.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.create',
    returns: returns<UserAdminResponseDto>(),
    body: UserAdminCreateDto,
    status: 201,
  },
  async ({ body }) => mapUserAdminV3(await createUser(body)),
);
