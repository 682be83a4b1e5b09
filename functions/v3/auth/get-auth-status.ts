import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAuthStatus } from '#shared/services/auth-status.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    returns: returns<{ pinCode: boolean; password: boolean; isElevated: boolean; expiresAt?: string; pinExpiresAt?: string }>(),
  },
  ({ auth }) => getAuthStatus(auth),
);
