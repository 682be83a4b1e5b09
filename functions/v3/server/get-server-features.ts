import { mapServerFeaturesV3, type ServerFeaturesDto } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getServerSettings } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<ServerFeaturesDto>() }, async () =>
  mapServerFeaturesV3(await getServerSettings()),
);
