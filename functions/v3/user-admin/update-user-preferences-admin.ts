import { IdParams } from '#shared/dto/common.ts';
import { type UserPreferencesResponseDto, UserPreferencesUpdateDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateUserPreferences } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.update',
    returns: returns<UserPreferencesResponseDto>(),
    params: IdParams,
    body: UserPreferencesUpdateDto,
  },
  ({ params, body }) => updateUserPreferences(params.id, body),
);
