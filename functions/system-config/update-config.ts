import type { SystemConfig } from '#shared/domain/system-config.ts';
import { SystemConfigBody } from '#shared/dto/v3/system-config.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateConfig } from '#shared/services/system-config.service.ts';

// Both generations' path (v3's `updateConfig`): one body with both generations' settings
// (docs/immich-compatibility.md, "System configuration").
export const handler = httpHandler(
  { publish, access: 'admin', permission: 'systemConfig.update', returns: returns<SystemConfig>(), body: SystemConfigBody },
  ({ body }) => updateConfig(body),
);
