import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({}, () => ({ res: 'pong' }));
