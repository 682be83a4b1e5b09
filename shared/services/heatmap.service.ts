import * as assetRepo from '../db/asset.repository.ts';
import * as timelineRepo from '../db/timeline.repository.ts';
import type { Auth } from '../model/user.ts';
import { findOrFail } from './user/user.service.ts';

/** Immich v3's `CalendarHeatmapType`: days by upload (the default) or by when the photos were taken. */
export type HeatmapType = 'Upload' | 'Taken';

export interface CalendarHeatmap {
  from: string;
  to: string;
  series: { date: string; count: number }[];
  totalCount: number;
}

const dayMs = 86_400_000;
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Immich v3's calendar heatmap (`getCalendarHeatmap`): how many of the user's untrashed assets
 * each day from `from` to `to` (UTC days; by default the 52 weeks up to today) holds, by upload
 * or by the day they were taken. Taken: the timeline's day counters (one Query). Upload: the
 * assets changed since `from` (the by-update index, two attributes each), counted by upload day
 * (docs/data-model.md, pattern 72).
 */
const heatmapOf = async (ownerId: string, dto: { from?: string | undefined; to?: string | undefined; type?: HeatmapType | undefined }) => {
  const to = Date.parse(dto.to ?? dayOf(Date.now()));
  const from = dto.from ? Date.parse(dto.from) : to - 52 * 7 * dayMs + dayMs;
  const counts = new Map<string, number>();
  const add = (day: string, n: number) => counts.set(day, (counts.get(day) ?? 0) + n);
  if ((dto.type ?? 'Upload') === 'Taken') {
    for (const counter of await timelineRepo.listCounters(ownerId))
      if (counter.size === 'DAY' && !counter.state.isTrashed) add(counter.period, counter.count);
  } else {
    for (const upload of await assetRepo.uploadsSince(ownerId, new Date(from).toISOString()))
      if (!upload.trashed) add(upload.createdAt.slice(0, 10), 1);
  }
  const series: CalendarHeatmap['series'] = [];
  for (let day = from; day <= to; day += dayMs) series.push({ date: dayOf(day), count: counts.get(dayOf(day)) ?? 0 });
  return { from: dayOf(from), to: dayOf(to), series, totalCount: series.reduce((total, item) => total + item.count, 0) };
};

/** GET /users/me/calendar-heatmap. */
export const getMyCalendarHeatmap = (auth: Auth, dto: Parameters<typeof heatmapOf>[1]): Promise<CalendarHeatmap> =>
  heatmapOf(auth.user.id, dto);

/**
 * GET /admin/users/:id/calendar-heatmap (admin): a user's, also one pending deletion, whose admin
 * page (with their restore) asks for it as for any user. Immich 3.1 answers `User not found` for
 * them, which its own page leaves unhandled (docs/immich-compatibility.md, "Users"); a user removed
 * for good, or never there, is that 400.
 */
export const getUserCalendarHeatmap = async (id: string, dto: Parameters<typeof heatmapOf>[1]): Promise<CalendarHeatmap> =>
  heatmapOf((await findOrFail(id, true)).id, dto);
