import { serverVersion } from '#shared/domain/server-info.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({}, () => serverVersion);
