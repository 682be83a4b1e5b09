import type { AssetStatsResponseDto } from '#shared/dto/common/timeline.response.ts';
import { AssetStatsDto } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetStatistics } from '#shared/services/timeline.service.ts';

// The CLI's `server-info`; the same counters as v1.100's /asset/statistics.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'asset.statistics', returns: returns<AssetStatsResponseDto>(), query: AssetStatsDto },
  ({ auth, query }) => getAssetStatistics(auth, { ...query, isTrashed: query.isTrashed ?? false }),
);
