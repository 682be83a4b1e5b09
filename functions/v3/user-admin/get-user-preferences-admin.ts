import { IdParams } from '#shared/dto/common.ts';
import type { UserPreferencesResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getUserPreferences } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminUser.read', returns: returns<UserPreferencesResponseDto>(), params: IdParams },
  ({ params }) => getUserPreferences(params.id),
);
