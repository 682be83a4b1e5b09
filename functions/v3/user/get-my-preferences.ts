import type { UserPreferencesResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getMyPreferences } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userPreference.read', returns: returns<UserPreferencesResponseDto>() },
  ({ auth }) => getMyPreferences(auth),
);
