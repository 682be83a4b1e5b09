import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { setAdminOnboarding } from '#shared/services/server-info.service.ts';

export const handler = httpHandler({ access: 'admin', permission: 'systemMetadata.update', returns: returns<void>(), status: 204 }, () =>
  setAdminOnboarding(true),
);
