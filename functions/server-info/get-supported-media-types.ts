import { mediaTypes } from '#shared/domain/media-types.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

export const handler = publicHandler({}, () => mediaTypes);
