import { mapServerConfig, type ServerConfigDto } from '#shared/dto/v1/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { getServerConfig } from '#shared/services/server-info.service.ts';

export const handler = publicHandler({ returns: returns<ServerConfigDto>() }, async () => mapServerConfig(await getServerConfig()));
