import type { AssetStatsResponseDto } from '#shared/dto/common/timeline.response.ts';
import { AssetStatsDto } from '#shared/dto/v1/timeline.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getAssetStatistics } from '#shared/services/timeline.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'asset.statistics', returns: returns<AssetStatsResponseDto>(), query: AssetStatsDto },
  // v1.100 counts the trash whenever `isTrashed` is given, true or false (Immich's quirk).
  ({ auth, query }) => getAssetStatistics(auth, { ...query, isTrashed: query.isTrashed !== undefined }),
);
