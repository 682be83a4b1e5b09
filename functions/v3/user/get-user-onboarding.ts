import type { OnboardingResponseDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getOnboarding } from '#shared/services/user/user.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'userOnboarding.read', returns: returns<OnboardingResponseDto>() },
  async ({ auth }) => ({ isOnboarded: await getOnboarding(auth) }),
);
