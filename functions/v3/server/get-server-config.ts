import { mapServerConfigV3, type ServerConfigDto } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getServerConfig } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<ServerConfigDto>() }, async () =>
  mapServerConfigV3(await getServerConfig()),
);
