import { AdminOnboardingUpdateDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setAdminOnboarding } from '#shared/services/server-info.service.ts';

// The v3 web app's last onboarding step (v1.100's POST /server-info/admin-onboarding sets it too).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'systemMetadata.update',
    returns: returns<void>(),
    body: AdminOnboardingUpdateDto,
    status: 204,
  },
  ({ body }) => setAdminOnboarding(body.isOnboarded),
);
