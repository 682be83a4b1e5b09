import { IdParams } from '#shared/dto/common.ts';
import { mapUserAdminV3, type UserAdminResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { findOrFail } from '#shared/services/user/user.service.ts';

// Deleted users too: the admin page offers their restore.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminUser.read', returns: returns<UserAdminResponseDto>(), params: IdParams },
  async ({ params }) => mapUserAdminV3(await findOrFail(params.id, true)),
);
