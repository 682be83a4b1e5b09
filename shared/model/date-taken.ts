/**
 * A date taken as a client writes it in an edit (PUT /asset/:id, PUT /assets/{id}, PUT /assets),
 * read by the requests' schemas and by the edit itself (shared/domain/date-edit.ts).
 */

/** Local time is UTC−12 to UTC+14: the timeline's bucket reads count on it (shared/model/time-bucket.ts). */
export const offsetInRange = (minutes: number): boolean => minutes >= -12 * 60 && minutes <= 14 * 60;

/** The offset at the end of a time (`Z`, `+02:00`, `+0200`, `-05`). */
const offsetSuffix = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The instant an edited date names, and the offset it was written with (minutes east of UTC;
 * undefined without one). A time without an offset is read as UTC, as Immich's database reads
 * it; a date alone is its first instant in UTC. Undefined for what is no date.
 */
export const readEditedDate = (text: string): { instant: number; offset?: number } | undefined => {
  const trimmed = text.trim().replace(' ', 'T');
  const time = trimmed.split('T')[1];
  const suffix = time === undefined ? undefined : offsetSuffix.exec(time)?.[1];
  const instant = Date.parse(time !== undefined && suffix === undefined ? `${trimmed}Z` : trimmed);
  if (Number.isNaN(instant)) return undefined;
  if (suffix === undefined) return { instant };
  if (suffix.toUpperCase() === 'Z') return { instant, offset: 0 };
  const sign = suffix.startsWith('-') ? -1 : 1;
  const digits = suffix.slice(1).replace(':', '');
  return { instant, offset: sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0')) };
};

/** Whether a zone name is one the runtime knows (an IANA zone, or `UTC`): v3's `@IsTimeZone`. */
export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
