import type { SystemConfig } from '#shared/domain/system-config.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getConfig } from '#shared/services/config.reader.ts';

export const handler = httpHandler({ access: 'admin', permission: 'systemConfig.read', returns: returns<SystemConfig>() }, () =>
  getConfig(),
);
