import { httpHandler } from '#shared/http/handler.ts';
import { getConfigDefaults } from '#shared/services/config.reader.ts';

export const handler = httpHandler({ access: 'admin' }, () => getConfigDefaults());
