import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { detectPriorInstall } from '#shared/services/absent-features.service.ts';

export const handler = httpHandler({ generation: 'v3', access: 'admin', permission: 'maintenance', returns: returns<never>() }, () =>
  detectPriorInstall(),
);
