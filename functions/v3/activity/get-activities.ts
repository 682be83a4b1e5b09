import { type ActivityResponseDto, mapActivityV3 } from '#shared/dto/v3/activity.response.ts';
import { ActivitySearchDto } from '#shared/dto/v3/activity.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getActivities } from '#shared/services/activity.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'activity.read', query: ActivitySearchDto, returns: returns<ActivityResponseDto[]>() },
  async ({ auth, query }) => (await getActivities(auth, query)).map(mapActivityV3),
);
