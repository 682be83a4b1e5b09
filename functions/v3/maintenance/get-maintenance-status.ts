import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { maintenanceStatus } from '#shared/services/absent-features.service.ts';

// Asked by the web app before anyone signs in (Immich's needs no caller either).
export const handler = publicHandler({ generation: 'v3', returns: returns<ReturnType<typeof maintenanceStatus>>() }, () =>
  maintenanceStatus(),
);
