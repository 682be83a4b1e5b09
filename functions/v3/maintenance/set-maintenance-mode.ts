import { SetMaintenanceModeDto } from '#shared/dto/v3/maintenance.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setMaintenanceMode } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'maintenance', body: SetMaintenanceModeDto, returns: returns<void>(), status: 201 },
  ({ body }) => setMaintenanceMode(body.action),
);
