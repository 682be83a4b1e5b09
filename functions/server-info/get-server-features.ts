import { mapServerFeatures, type ServerFeaturesDto } from '#shared/dto/v1/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getServerSettings } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ returns: returns<ServerFeaturesDto>() }, async () => mapServerFeatures(await getServerSettings()));
