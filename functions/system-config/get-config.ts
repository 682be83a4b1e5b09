import { httpHandler } from '#shared/http/handler.ts';
import { getConfig } from '#shared/services/config.reader.ts';

export const handler = httpHandler({ access: 'admin' }, () => getConfig());
