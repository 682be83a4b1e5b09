import { IdParams } from '#shared/dto/common.ts';
import { mapUserAdminV3, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { bringBackUser } from '#shared/services/user/removal.service.ts';

// 200 in v3 (v1.100's restore answers 201).
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminUser.delete', returns: returns<UserAdminResponseDto>(), params: IdParams },
  async ({ params }) => mapUserAdminV3(await bringBackUser(params.id)),
);
