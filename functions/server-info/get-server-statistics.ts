import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getServerStatistics, type ServerStatsResponseDto } from '#shared/services/server-info.service.ts';

export const handler = httpHandler({ access: 'admin', returns: returns<ServerStatsResponseDto>() }, () => getServerStatistics());
