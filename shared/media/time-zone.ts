/**
 * Time zones from a position, offline, as Immich's metadata job finds them for files that carry
 * no UTC offset (exiftool-vendored's geo time-zone lookup, docs/immich-compatibility.md, "Media"):
 * @photostructure/tz-lookup, a 73 KB table of the IANA zones' boundaries, small enough for the
 * upload function (Immich's geo-tz is 30 MB of polygons and a few metres more exact at borders).
 * Offsets at a given moment come from the runtime's own IANA data (Intl).
 */

import { offsetAt } from '../domain/time-zones.ts';

export { offsetAt, zoneName } from '../domain/time-zones.ts';

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

/** The offset of a wall-clock time (written as if UTC) in `zone`: the instant is found in two steps, as around a DST change. */
export const offsetOfWallClock = (zone: string, wallClock: number): number => {
  const first = offsetAt(zone, wallClock);
  return offsetAt(zone, wallClock - first * 60_000);
};
