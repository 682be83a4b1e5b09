import { type AdminConfigDto, mapAdminConfig } from '#shared/dto/v3/system-config.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getOAuthConfig } from '#shared/services/oauth-config.ts';

// v3.2's admin settings path: the configuration GET /system-config answers, in v3's shape alone.
export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminConfig.read', returns: returns<AdminConfigDto>() },
  async () => mapAdminConfig(await getOAuthConfig()),
);
