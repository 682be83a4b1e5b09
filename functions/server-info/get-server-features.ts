import type { ServerFeaturesDto } from '#shared/domain/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getServerFeatures } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ returns: returns<ServerFeaturesDto>() }, () => getServerFeatures());
