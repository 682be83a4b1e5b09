import type { AdminOnboardingResponseDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAdminOnboarding } from '#shared/services/server-info.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'systemMetadata.read', returns: returns<AdminOnboardingResponseDto>() },
  async () => ({ isOnboarded: await getAdminOnboarding() }),
);
