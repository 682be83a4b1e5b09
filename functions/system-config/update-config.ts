import { httpHandler } from '#shared/http/handler.ts';
import { SystemConfigBody } from '#shared/schemas/system-config.ts';
import { updateConfig } from '#shared/services/system-config.service.ts';

export const handler = httpHandler({ access: 'admin', body: SystemConfigBody }, ({ body }) => updateConfig(body));
