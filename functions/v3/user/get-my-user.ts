import { mapUserAdminV3, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMyUserInfo } from '#shared/services/user/user.service.ts';

// The CLI's first signed-in call (`immich login`), and the mobile app's after login.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.read', returns: returns<UserAdminResponseDto>() },
  async ({ auth }) => mapUserAdminV3(await getMyUserInfo(auth)),
);
