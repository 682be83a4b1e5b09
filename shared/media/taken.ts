/**
 * When a photo or video was taken and in which time zone, as Immich v3's metadata job finds it
 * (server/src/services/metadata.service.ts: `EXIF_DATE_TAGS`, `firstDateTime`, `getDates`, and the
 * sidecar's dates preferred in `getExifTags`) over the zones exiftool-vendored infers with the
 * options Immich gives it (`backfillTimezones`, `inferTimezoneFromDatestamps`, `defaultVideosToUTC`,
 * a geo time-zone lookup). docs/immich-compatibility.md, "Media", says what is read where.
 *
 * The date: the first of exiftool's tags in Immich's order that holds a date and time —
 * `SubSecDateTimeOriginal` (EXIF DateTimeOriginal with its SubSecTimeOriginal and
 * OffsetTimeOriginal), `SubSecCreateDate` (EXIF CreateDate with SubSecTimeDigitized and
 * OffsetTimeDigitized), `DateTimeOriginal` (XMP exif:DateTimeOriginal, IPTC DateCreated with
 * TimeCreated, XMP photoshop:DateCreated: exiftool's MWG composite), `CreationDate` (a QuickTime
 * movie's Apple creation date), `CreateDate` (XMP xmp:CreateDate, IPTC DigitalCreationDate with its
 * time, a movie header's UTC time), `DateTimeCreated` (IPTC), `GPSDateTime` (EXIF GPSDateStamp with
 * GPSTimeStamp, or XMP exif:GPSTimeStamp: UTC), `SourceImageCreateTime` (XMP GPano, Insta360).
 * When the sidecar has any of them, the file's dates (and its zone) are not used.
 *
 * The zone of each file: an offset tag (OffsetTimeOriginal, OffsetTimeDigitized, TimeZoneOffset),
 * else the IANA zone of the file's position, else a non-UTC offset written into one of its dates,
 * else UTC for a video, else the offset between its date and its GPS time (UTC), to the nearest
 * zone in use. A date without an offset of its own is a wall-clock time in its file's zone (in UTC
 * for a video, and for GPS times); a date with no zone at all is taken as UTC. The asset's zone is
 * the sidecar's, else the file's; with none, a date written in UTC (`Z`, `+00:00`) gives `UTC+0`.
 */
import type { ContainerMetadata } from './quicktime.ts';
import { offsetAt, offsetOfWallClock, zoneAt, zoneName } from './time-zone.ts';

type Tags = Record<string, unknown>;

// Pacific/Kiritimati is +14:00, Baker Island −12:00 (exiftool-vendored's bounds).
const maxOffsetMinutes = 14 * 60;

const offsetPattern = /^(Z|[+-]\d{2}:?\d{2})$/;

const offsetMinutes = (offset: string): number | undefined => {
  if (!offsetPattern.test(offset)) return undefined;
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
  return Math.abs(minutes) <= maxOffsetMinutes ? minutes : undefined;
};

const datePattern = /^(\d{4})[:-](\d{2})[:-](\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

export interface WallClock {
  /** The wall-clock time written as if it were UTC (Immich's `localDateTime`). */
  local: Date;
  /** Minutes east of UTC, when the date says. */
  offset?: number;
  /** The date as written (Immich looks at its end for `Z` / `+00:00`). */
  raw: string;
}

/** An EXIF (`2023:06:01 10:30:00`) or XMP (`2023-06-01T10:30:00+02:00`) date, with its own offset if any. */
export const parseWallClock = (value: unknown, separateOffset?: unknown): WallClock | undefined => {
  if (typeof value !== 'string') return undefined;
  const raw = value.trim();
  const match = datePattern.exec(raw);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', inlineOffset] = match;
  const numbers = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = numbers;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Math.round(Number(`0.${fraction}`) * 1000);
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  // 2023-02-30 rolls over into March: not a date.
  if (Number.isNaN(local.getTime()) || local.getUTCDate() !== d) return undefined;
  const offsetText = inlineOffset ?? (typeof separateOffset === 'string' ? separateOffset.trim() : undefined);
  const offset = offsetText === undefined ? undefined : offsetMinutes(offsetText);
  const written = inlineOffset || offset === undefined ? raw : `${raw}${offsetText}`;
  return offset === undefined ? { local, raw: written } : { local, offset, raw: written };
};

/** EXIF keeps fractions of a second apart (SubSecTimeOriginal `348`): joined to the date as exiftool's SubSecDateTimeOriginal. */
export const withSubSeconds = (value: unknown, subSeconds: unknown): unknown => {
  const digits = typeof subSeconds === 'string' ? subSeconds.trim() : typeof subSeconds === 'number' ? String(subSeconds) : '';
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(digits) || /[.]\d/.test(value)) return value;
  // The fraction goes after the seconds, before any offset written into the date itself.
  return value.trim().replace(/^(\S+[ T]\d{2}:\d{2}:\d{2})/, `$1.${digits}`);
};

/** A time zone: an IANA zone (from a position) or a fixed offset (from the file). */
export interface Zone {
  name: string;
  /** Minutes east of UTC, for a fixed offset. */
  fixed?: number;
}

const fixedZone = (minutes: number): Zone => ({ name: zoneName(minutes), fixed: minutes });

/** The offset of `zone` at a wall-clock time (written as if UTC). */
const wallOffset = (zone: Zone, local: number): number => zone.fixed ?? offsetOfWallClock(zone.name, local);

/** The offset of `zone` at an instant. */
const instantOffset = (zone: Zone, instant: number): number => zone.fixed ?? offsetAt(zone.name, instant);

/** One file as the date and zone rules see it. */
export interface DateSource {
  /** Its EXIF and IPTC (flattened; IPTC's dates joined as exiftool's `DateTimeCreated`, `DigitalCreationDateTime`). */
  exif: Tags;
  /** Its XMP (flattened; exif:GPSTimeStamp as exiftool's `GPSDateTime`). */
  xmp: Tags;
  /** A video's container. */
  container?: ContainerMetadata;
  /** Whether it is a video (zoneless dates are UTC). */
  video: boolean;
  /** Its own position, if it has one (its zone's place). */
  position?: { latitude: number; longitude: number };
}

/** Immich's date tags, by exiftool's names. */
type DateTag =
  | 'SubSecDateTimeOriginal'
  | 'SubSecCreateDate'
  | 'DateTimeOriginal'
  | 'CreationDate'
  | 'CreateDate'
  | 'DateTimeCreated'
  | 'GPSDateTime'
  | 'SourceImageCreateTime';

interface DateValue {
  tag: DateTag;
  clock: WallClock;
}

/** A movie header's time (UTC by the format's definition), as exiftool writes it: zoneless. */
const exifDate = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');

/** The values that may stand for each of Immich's date tags in a file (a value with its separate offset tag), in Immich's order. */
const dateTags = ({ exif, xmp, container }: DateSource): [DateTag, [unknown, unknown?][]][] => [
  ['SubSecDateTimeOriginal', [[withSubSeconds(exif.DateTimeOriginal, exif.SubSecTimeOriginal), exif.OffsetTimeOriginal]]],
  ['SubSecCreateDate', [[withSubSeconds(exif.CreateDate, exif.SubSecTimeDigitized), exif.OffsetTimeDigitized]]],
  ['DateTimeOriginal', [[xmp.DateTimeOriginal], [exif.DateTimeCreated], [xmp.DateCreated]]],
  ['CreationDate', [[container?.creationDate]]],
  ['CreateDate', [[xmp.CreateDate], [exif.DigitalCreationDateTime], [container?.createdAt && exifDate(container.createdAt)]]],
  ['DateTimeCreated', [[exif.DateTimeCreated]]],
  ['GPSDateTime', [[exif.GPSDateTime], [xmp.GPSDateTime]]],
  ['SourceImageCreateTime', [[xmp.SourceImageCreateTime]]],
];

/** Every date the file holds, in Immich's order (`firstDateTime` takes the first). */
const datesOf = (source: DateSource): DateValue[] =>
  dateTags(source).flatMap(([tag, candidates]) => {
    for (const [value, offset] of candidates) {
      const clock = parseWallClock(value, offset);
      if (clock) return [{ tag, clock }];
    }
    return [];
  });

// exiftool-vendored's CapturedAtTagNames (MediaCreateDate, a movie's media header, is its CreateDate
// here): the dates whose written offset may name the file's zone.
const capturedAt = new Set<DateTag>([
  'SubSecDateTimeOriginal',
  'SubSecCreateDate',
  'DateTimeOriginal',
  'CreateDate',
  'CreationDate',
  'DateTimeCreated',
]);

// Offsets in use (and exiftool-vendored's archaic ones aside): an offset inferred from a GPS time is rounded to the nearest.
const offsetsInUse = [
  -720, -660, -600, -570, -540, -480, -420, -360, -300, -240, -210, -180, -120, -60, 0, 60, 120, 180, 210, 240, 270, 300, 330, 345, 360,
  390, 420, 480, 525, 540, 570, 600, 630, 660, 720, 765, 780, 840,
];

/** exiftool-vendored's `inferLikelyOffsetMinutes`: the offset in use nearest to `minutes`, if within 30 minutes of it. */
const likelyOffset = (minutes: number): number | undefined => {
  let best: number | undefined;
  for (const offset of offsetsInUse) if (best === undefined || Math.abs(offset - minutes) < Math.abs(best - minutes)) best = offset;
  return best !== undefined && Math.abs(best - minutes) <= 30 ? best : undefined;
};

/** EXIF TimeZoneOffset: hours (one value, or two: DateTimeOriginal's and ModifyDate's). */
const hoursOffset = (value: unknown): number | undefined => {
  const hours = Array.isArray(value) ? value[0] : value;
  return typeof hours === 'number' && Number.isFinite(hours) && Math.abs(hours * 60) <= maxOffsetMinutes
    ? Math.round(hours * 60)
    : undefined;
};

/** exiftool-vendored's zone of one file (its `tz`), by its rules in their order. */
const zoneOf = async (source: DateSource, dates: readonly DateValue[] = datesOf(source)): Promise<Zone | undefined> => {
  const { exif, xmp } = source;
  for (const tag of ['OffsetTimeOriginal', 'OffsetTimeDigitized'] as const) {
    const value = exif[tag] ?? xmp[tag];
    const minutes = typeof value === 'string' ? offsetMinutes(value.trim()) : undefined;
    if (minutes !== undefined) return fixedZone(minutes);
  }
  const hours = hoursOffset(exif.TimeZoneOffset ?? xmp.TimeZoneOffset);
  if (hours !== undefined) return fixedZone(hours);
  if (source.position) {
    const zone = await zoneAt(source.position.latitude, source.position.longitude);
    if (zone) return { name: zone };
  }
  const written = dates.find(({ tag, clock }) => capturedAt.has(tag) && clock.offset !== undefined && clock.offset !== 0);
  if (written?.clock.offset !== undefined) return fixedZone(written.clock.offset);
  if (source.video) return fixedZone(0);
  const gps = dates.find(({ tag }) => tag === 'GPSDateTime');
  const zoneless = dates.find(({ tag, clock }) => capturedAt.has(tag) && clock.offset === undefined);
  if (gps && zoneless) {
    const utc = gps.clock.local.getTime() - (gps.clock.offset ?? 0) * 60_000;
    const minutes = likelyOffset((zoneless.clock.local.getTime() - utc) / 60_000);
    if (minutes !== undefined) return fixedZone(minutes);
  }
  return undefined;
};

export interface Taken {
  /** The moment (Immich's `dateTimeOriginal`, `fileCreatedAt`). */
  instant: Date;
  /** The wall-clock time in the asset's zone, written as if UTC (Immich's `localDateTime`). */
  local: Date;
}

export interface Dates {
  /** When the file says it was taken, if it does. */
  taken?: Taken;
  /** The asset's time zone (Immich's `exifInfo.timeZone`), also without a date. */
  timeZone: string | null;
  /** The zone of the file's own dates (its `ModifyDate`'s too), if any. */
  fileZone?: Zone;
}

/** A wall-clock time as an instant: its own offset, else its file's zone, else UTC. */
export const instantOf = (clock: WallClock, zone: Zone | undefined): Date => {
  const offset = clock.offset ?? (zone ? wallOffset(zone, clock.local.getTime()) : 0);
  return new Date(clock.local.getTime() - offset * 60_000);
};

/** The date taken and the zone of a file and its sidecar, as Immich's `getDates`. */
export const datesOfFile = async (file: DateSource, sidecar?: DateSource): Promise<Dates> => {
  const sidecarDates = sidecar ? datesOf(sidecar) : [];
  const fileDates = sidecarDates.length > 0 ? [] : datesOf(file);
  const sidecarZone = sidecar ? await zoneOf(sidecar, sidecarDates) : undefined;
  // A sidecar with a date takes the file's zone with the file's dates (Immich deletes both).
  const fileZone = sidecarDates.length > 0 ? undefined : await zoneOf(file, fileDates);
  const zone = sidecarZone ?? fileZone;
  const [first] = sidecarDates.length > 0 ? sidecarDates : fileDates;
  const dateZone = sidecarDates.length > 0 ? sidecarZone : fileZone;
  const utcOnly = first && (first.tag === 'GPSDateTime' || (sidecarDates.length === 0 && file.video));
  const timeZone = zone?.name ?? (first && /(Z|\+00:?00)$/.test(first.clock.raw) ? 'UTC+0' : null);
  const base = { timeZone, ...(fileZone ? { fileZone } : {}) };
  if (!first) return base;
  const instant = instantOf(first.clock, utcOnly ? fixedZone(0) : dateZone);
  const shown = zone ? instantOffset(zone, instant.getTime()) : 0;
  return { ...base, taken: { instant, local: new Date(instant.getTime() + shown * 60_000) } };
};
