import { OnboardingDto, type OnboardingResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setOnboarding } from '#shared/services/user/user.service.ts';

// The web app's last onboarding step; login answers it as `isOnboarded` from then on.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userOnboarding.update', returns: returns<OnboardingResponseDto>(), body: OnboardingDto },
  async ({ auth, body }) => ({ isOnboarded: await setOnboarding(auth, body.isOnboarded) }),
);
