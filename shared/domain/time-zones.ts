/**
 * Offsets of time zones, pure (the runtime's own IANA data, through Intl): what the upload's
 * metadata reader (shared/media/time-zone.ts) and a date edit (shared/domain/date-edit.ts) share.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC that `zone` observes at `instant` (its daylight-saving rules applied). */
export const offsetAt = (zone: string, instant: number): number => {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((each) => [each.type, Number(each.value)]));
  const wall = Date.UTC(part.year ?? 0, (part.month ?? 1) - 1, part.day, part.hour, part.minute, part.second);
  // Intl shows whole seconds: compare with the instant cut to its second.
  return Math.round((wall - (instant - (((instant % 1000) + 1000) % 1000))) / 60_000);
};

/** `+02:00` → `UTC+2`, `+05:30` → `UTC+5:30`, `Z`/`+00:00` → `UTC` (luxon's fixed-offset names, as Immich stores). */
export const zoneName = (offsetMinutes: number): string => {
  if (offsetMinutes === 0) return 'UTC';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = Math.floor(abs / 60);
  const minutes = abs % 60;
  return `UTC${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
};
