import type { ActivityStatisticsResponseDto } from '#shared/dto/v3/activity.response.ts';
import { ActivityDto } from '#shared/dto/v3/activity.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getActivityStatistics } from '#shared/services/activity.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'activity.statistics',
    query: ActivityDto,
    returns: returns<ActivityStatisticsResponseDto>(),
  },
  ({ auth, query }) => getActivityStatistics(auth, query.albumId, query.assetId),
);
