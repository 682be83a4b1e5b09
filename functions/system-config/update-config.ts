import type { SystemConfig } from '#shared/dto/v1/system-config.ts';
import { SystemConfigBody } from '#shared/dto/v1/system-config.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updateConfig } from '#shared/services/system-config.service.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'systemConfig.update', returns: returns<SystemConfig>(), body: SystemConfigBody },
  ({ body }) => updateConfig(body),
);
