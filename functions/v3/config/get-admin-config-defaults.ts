import { type AdminConfigDto, mapAdminConfig } from '#shared/dto/v3/system-config.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getConfigDefaults } from '#shared/services/config.reader.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'adminConfig.read', returns: returns<AdminConfigDto>() },
  () => mapAdminConfig(getConfigDefaults()),
);
