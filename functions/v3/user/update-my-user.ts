import { mapUserAdminV3, type UserAdminResponseDto, UserUpdateMeDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateMe } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.update', returns: returns<UserAdminResponseDto>(), body: UserUpdateMeDto },
  async ({ auth, body }) => mapUserAdminV3(await updateMe(auth, body)),
);
