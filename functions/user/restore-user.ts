import { IdParams } from '#shared/dto/common.ts';
import type { UserResponse } from '#shared/dto/v1/user.response.ts';
import { mapUser } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { bringBackUser } from '#shared/services/user/removal.service.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'adminUser.delete', returns: returns<UserResponse>(), params: IdParams, status: 201 },
  async ({ params }) => mapUser(await bringBackUser(params.id)),
);
