import { SystemConfigBody } from '#shared/dto/common/system-config.ts';
import { type AdminConfigDto, mapAdminConfig } from '#shared/dto/v3/system-config.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publish } from '#shared/realtime/publisher.ts';
import { updateConfig } from '#shared/services/system-config.service.ts';

// The same update as PUT /system-config, answered in v3's shape (and its errors in v3's).
export const handler = httpHandler(
  {
    publish,
    generation: 'v3',
    access: 'admin',
    permission: 'adminConfig.update',
    returns: returns<AdminConfigDto>(),
    body: SystemConfigBody,
  },
  async ({ body }) => mapAdminConfig(await updateConfig(body)),
);
