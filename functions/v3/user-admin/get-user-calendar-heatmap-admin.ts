import { IdParams } from '#shared/dto/common.ts';
import { CalendarHeatmapDto } from '#shared/dto/v3/user.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { type CalendarHeatmap, getUserCalendarHeatmap } from '#shared/services/heatmap.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'admin',
    permission: 'adminUser.read',
    params: IdParams,
    query: CalendarHeatmapDto,
    returns: returns<CalendarHeatmap>(),
  },
  ({ params, query }) => getUserCalendarHeatmap(params.id, query),
);
