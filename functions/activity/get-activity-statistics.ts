import type { ActivityStatisticsResponseDto } from '#shared/dto/v1/activity.response.ts';
import { ActivityDto } from '#shared/dto/v1/activity.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getActivityStatistics } from '#shared/services/activity.service.ts';

// v1.100 counts the comments only.
export const handler = httpHandler(
  { access: 'user', permission: 'activity.statistics', query: ActivityDto, returns: returns<ActivityStatisticsResponseDto>() },
  async ({ auth, query }) => ({ comments: (await getActivityStatistics(auth, query.albumId, query.assetId ?? undefined)).comments }),
);
