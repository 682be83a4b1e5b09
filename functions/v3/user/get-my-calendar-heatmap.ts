import { CalendarHeatmapDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { type CalendarHeatmap, getMyCalendarHeatmap } from '#shared/services/heatmap.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'user.read', query: CalendarHeatmapDto, returns: returns<CalendarHeatmap>() },
  ({ auth, query }) => getMyCalendarHeatmap(auth, query),
);
