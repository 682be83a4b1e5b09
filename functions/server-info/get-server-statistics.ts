import { mapServerStatistics, type ServerStatsResponseDto } from '#shared/dto/v1/server-info.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerStatistics } from '#shared/services/server-info.service.ts';

export const handler = httpHandler(
  { access: 'admin', permission: 'server.statistics', returns: returns<ServerStatsResponseDto>() },
  async () => mapServerStatistics(await getServerStatistics()),
);
