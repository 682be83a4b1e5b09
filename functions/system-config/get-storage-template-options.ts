import type { SystemConfigTemplateStorageOptionDto } from '#shared/domain/system-config.ts';
import { storageTemplateOptions } from '#shared/domain/system-config.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'systemConfig.read', returns: returns<SystemConfigTemplateStorageOptionDto>() },
  () => storageTemplateOptions,
);
