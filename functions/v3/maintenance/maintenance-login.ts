import { MaintenanceLoginDto } from '#shared/dto/v3/maintenance.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { maintenanceLogin } from '#shared/services/absent-features.service.ts';

export const handler = publicHandler({ generation: 'v3', body: MaintenanceLoginDto, returns: returns<never>(), status: 201 }, () =>
  maintenanceLogin(),
);
