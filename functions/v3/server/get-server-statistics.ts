import { mapServerStatisticsV3, type ServerStatsResponseDto } from '#shared/dto/v3/server.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerStatistics } from '#shared/services/server-info.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'admin', permission: 'server.statistics', returns: returns<ServerStatsResponseDto>() },
  async () => mapServerStatisticsV3(await getServerStatistics()),
);
