import type { AssetStatsResponseDto } from '#shared/dto/common/timeline.response.ts';
import { IdParams } from '#shared/dto/common.ts';
import { AssetStatsDto } from '#shared/dto/v3/asset.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { countAssets } from '#shared/services/timeline.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.read',
    returns: returns<AssetStatsResponseDto>(),
    params: IdParams,
    query: AssetStatsDto,
  },
  ({ params, query }) => countAssets(params.id, { ...query, isTrashed: query.isTrashed ?? false }),
);
