import { storageTemplateOptions } from '#shared/domain/system-config.ts';
import { httpHandler } from '#shared/http/handler.ts';

export const handler = httpHandler({ access: 'admin' }, () => storageTemplateOptions);
