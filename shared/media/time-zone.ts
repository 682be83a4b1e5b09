/**
 * Time zones from a position, offline, as Immich's metadata job finds them for files that carry
 * no UTC offset (exiftool-vendored's geo time-zone lookup, docs/immich-compatibility.md, "Media"):
 * @photostructure/tz-lookup, a 73 KB table of the IANA zones' boundaries, small enough for the
 * upload function (Immich's geo-tz is 30 MB of polygons and a few metres more exact at borders).
 * Offsets at a given moment come from the runtime's own IANA data (Intl).
 */

// Evaluated on the first lookup, not at import (a cold start of the upload functions that reads no
// GPS position never pays for it; docs/benchmarks.md).
let lookup: Promise<(latitude: number, longitude: number) => string> | undefined;

/** The IANA zone at a position (`America/Chicago`; `Etc/GMT+5` at sea), or undefined for a bad position. */
export const zoneAt = async (latitude: number, longitude: number): Promise<string | undefined> => {
  lookup ??= import('@photostructure/tz-lookup').then((module) => module.default);
  const tzLookup = await lookup;
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return undefined;
  }
};

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

/** The offset of a wall-clock time (written as if UTC) in `zone`: the instant is found in two steps, as around a DST change. */
export const offsetOfWallClock = (zone: string, wallClock: number): number => {
  const first = offsetAt(zone, wallClock);
  return offsetAt(zone, wallClock - first * 60_000);
};
