import { type UserPreferencesResponseDto, UserPreferencesUpdateDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateMyPreferences } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'userPreference.update',
    returns: returns<UserPreferencesResponseDto>(),
    body: UserPreferencesUpdateDto,
  },
  ({ auth, body }) => updateMyPreferences(auth, body),
);
