import type * as Exifr from 'exifr/dist/full.esm.mjs';
import { imageSize } from 'image-size';
import { canonicalCountry } from '../domain/countries.ts';
import type { ExifInfo } from '../model/asset.ts';
import { limits, truncate } from '../model/limits.ts';
import { type FaceRegion, faceRegionsOf } from './faces.ts';
import { heifExif, isHeif } from './heif.ts';
import { isIsoVideo, orientationOfRotation, readContainer } from './quicktime.ts';
import { offsetAt, offsetOfWallClock, zoneAt } from './time-zone.ts';

/** ExifResponseDto as Immich v1.100 stores it (`exif` table), minus the file size added by the caller. */

export interface Metadata {
  exif: ExifInfo;
  /** The moment the photo was taken (EXIF/XMP date with its offset), if the file says. */
  takenAt?: { instant: string; localDateTime: string; timeZone: string | null };
  faces: FaceRegion[];
  /** A video's length in milliseconds (Immich v3's), from its container. */
  duration?: number;
}

type Tags = Record<string, unknown>;

/** The file's star rating (EXIF or XMP `Rating`) as Immich keeps it: -1 (rejected) or 1 to 5; anything else is none. */
const starRating = (value: unknown): number | null => {
  const rating = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(rating) && rating >= -1 && rating <= 5 && rating !== 0 ? rating : null;
};

const parseOptions = {
  tiff: true,
  exif: true,
  gps: true,
  xmp: true,
  iptc: true,
  ihdr: true,
  icc: false,
  jfif: false,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  // Raw values: dates stay wall-clock strings, Orientation stays a number (as exiftool -n).
  translateKeys: true,
  translateValues: false,
  reviveValues: false,
  sanitize: true,
  mergeOutput: true,
} satisfies NonNullable<Parameters<typeof Exifr.sidecar>[1]>;

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  // XMP language alternatives (dc:description) come as { lang, value } or a list of them.
  if (Array.isArray(value)) return text(value[0]);
  if (value && typeof value === 'object' && 'value' in value) return text((value as { value: unknown }).value);
  return null;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * exifr decodes IPTC text as Latin-1 even when the file declares UTF-8 (record 1:90), so `Île`
 * arrives as `Ã\u008ele`. Text that is all Latin-1 and whose bytes are valid UTF-8 with
 * multi-byte sequences is such a misreading: decode it again. Real Latin-1 text almost never is.
 */
export const repairUtf8 = (value: string | null): string | null => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find text that is all Latin-1, control range included.
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
};

const number = (value: unknown): number | null => {
  const parsed = typeof value === 'string' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : null;
};

/** exiftool's ExposureTime print conversion, which Immich stores: `1/250`, `0.5`, `2`. */
export const formatExposureTime = (seconds: number): string => {
  if (seconds > 0 && seconds < 0.25001) return `1/${Math.floor(0.5 + 1 / seconds)}`;
  return String(Number(seconds.toFixed(1)));
};

const exposure = (value: unknown): string | null => {
  if (typeof value === 'string' && /^\d+\/\d+$/.test(value)) {
    const [a, b] = value.split('/').map(Number) as [number, number];
    return b === 0 ? null : formatExposureTime(a / b);
  }
  const seconds = number(value);
  return seconds === null ? null : formatExposureTime(seconds);
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

const offsetPattern = /^(Z|[+-]\d{2}:?\d{2})$/;

const offsetMinutes = (offset: string): number | undefined => {
  if (!offsetPattern.test(offset)) return undefined;
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
};

const datePattern = /^(\d{4})[:-](\d{2})[:-](\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

export interface WallClock {
  /** The wall-clock time written as if it were UTC (Immich's `localDateTime`). */
  local: Date;
  /** Minutes east of UTC, when the file says. */
  offset?: number;
}

/** An EXIF (`2023:06:01 10:30:00`) or XMP (`2023-06-01T10:30:00+02:00`) date, with its own offset if any. */
export const parseWallClock = (value: unknown, separateOffset?: unknown): WallClock | undefined => {
  if (typeof value !== 'string') return undefined;
  const match = datePattern.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', inlineOffset] = match;
  const ms = Math.round(Number(`0.${fraction}`) * 1000);
  const local = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), ms));
  if (Number.isNaN(local.getTime()) || Number(year) < 1) return undefined;
  const offsetText = inlineOffset ?? (typeof separateOffset === 'string' ? separateOffset.trim() : undefined);
  const offset = offsetText === undefined ? undefined : offsetMinutes(offsetText);
  return offset === undefined ? { local } : { local, offset };
};

/** EXIF keeps fractions of a second apart (SubSecTimeOriginal `348`): joined to the date as exiftool's SubSecDateTimeOriginal. */
const withSubSeconds = (value: unknown, subSeconds: unknown): unknown => {
  const digits = typeof subSeconds === 'string' ? subSeconds.trim() : typeof subSeconds === 'number' ? String(subSeconds) : '';
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(digits) || /[.]\d/.test(value)) return value;
  // The fraction goes after the seconds, before any offset written into the date itself.
  return value.trim().replace(/^(\S+[ T]\d{2}:\d{2}:\d{2})/, `$1.${digits}`);
};

/**
 * When a photo was taken, as Immich records it: the instant, the wall-clock time (`localDateTime`)
 * and the zone. A file without a UTC offset but with a GPS position gets the IANA zone of that
 * place (`America/Chicago`) and the offset it observed then; without either, the wall-clock time
 * is taken as UTC and the zone is unknown.
 */
export interface Taken {
  instant: Date;
  local: Date;
  timeZone: string | null;
}

const takenFromWallClock = (clock: WallClock, zone: string | undefined): Taken => {
  if (clock.offset !== undefined)
    return { instant: new Date(clock.local.getTime() - clock.offset * 60_000), local: clock.local, timeZone: zoneName(clock.offset) };
  if (zone) {
    const offset = offsetOfWallClock(zone, clock.local.getTime());
    return { instant: new Date(clock.local.getTime() - offset * 60_000), local: clock.local, timeZone: zone };
  }
  return { instant: clock.local, local: clock.local, timeZone: null };
};

/** A moment known in UTC (a video's movie header) placed in the zone of its position, if any. */
const takenFromInstant = (instant: Date, zone: string | undefined): Taken =>
  zone
    ? { instant, local: new Date(instant.getTime() + offsetAt(zone, instant.getTime()) * 60_000), timeZone: zone }
    : { instant, local: instant, timeZone: null };

/** XMP GPS form `52,31.2N` / `13,24,18W`, or a plain number. */
const coordinate = (value: unknown, ref?: unknown): number | null => {
  if (typeof value === 'string') {
    const match = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)(?:,(\d+(?:\.\d+)?))?([NSEW])$/i.exec(value.trim());
    if (match) {
      const [, d, m, s, hemisphere] = match;
      const decimal = Number(d) + Number(m) / 60 + Number(s ?? 0) / 3600;
      return /[SW]/i.test(hemisphere ?? '') ? -decimal : decimal;
    }
  }
  const parsed = number(value);
  if (parsed === null) return null;
  return typeof ref === 'string' && /^[SW]/i.test(ref) ? -Math.abs(parsed) : parsed;
};

/** exifr's output for a standalone XMP file is grouped by namespace; flatten it as the file's is. */
const flattenSidecar = (parsed: Record<string, unknown>): Tags => {
  const flat: Tags = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'xmlns') continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(flat, value);
    else flat[key] = value;
  }
  return flat;
};

/**
 * exifr reads the Buffer's underlying ArrayBuffer from offset 0, so a Buffer that is a slice of a
 * larger one (Node pools small Buffers) must be handed over as its own copy.
 */
const standalone = (data: Buffer): Uint8Array =>
  data.byteOffset === 0 && data.buffer.byteLength === data.length ? data : new Uint8Array(data);

/**
 * exifr (73 KB) is evaluated on the first file read, not at import: the functions that bundle it
 * (upload, upload-session completion) answer many invocations without reading metadata (a
 * duplicate, a refused form), and their cold import stays within 1.2× the AWS SDK clients they
 * carry (docs/benchmarks.md). esbuild keeps the module in the bundle and defers its evaluation.
 */
let exifrModule: Promise<typeof Exifr> | undefined;
const exifrReader = (): Promise<typeof Exifr> => {
  exifrModule ??= import('exifr/dist/full.esm.mjs');
  return exifrModule;
};

const readTags = async (file: Buffer): Promise<Tags> => {
  const exifr = await exifrReader();
  try {
    const tags = ((await exifr.parse(standalone(file), parseOptions)) as Tags | undefined) ?? {};
    if (!('errors' in tags) || !isHeif(file)) return tags;
    // A HEIF file exifr could not find the EXIF of (docs: shared/media/heif.ts): its TIFF block directly.
    const tiff = heifExif(file);
    return tiff ? (((await exifr.parse(new Uint8Array(tiff), parseOptions)) as Tags | undefined) ?? {}) : tags;
  } catch {
    // Files exifr cannot read (videos, formats it does not know) simply have no embedded metadata.
    return {};
  }
};

/** Tags of a sidecar, or undefined when it is not XMP at all. */
const readSidecar = async (sidecar: Buffer): Promise<Tags | undefined> => {
  if (!/<x:xmpmeta|<rdf:RDF/.test(sidecar.toString('utf8'))) return undefined;
  const exifr = await exifrReader();
  try {
    const parsed = (await exifr.sidecar(standalone(sidecar), { ...parseOptions, mergeOutput: true })) as
      | Record<string, unknown>
      | undefined;
    return parsed ? flattenSidecar(parsed) : {};
  } catch {
    return undefined;
  }
};

export class InvalidSidecarError extends Error {}

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Width and height from the image's own header, or undefined when it cannot be read. */
export const dimensionsOf = (file: Buffer): ImageDimensions | undefined => {
  try {
    const size = imageSize(file);
    if (!size.width || !size.height) return undefined;
    // EXIF orientations 5–8 are rotated by 90°: exiftool's ImageWidth is the stored width, as here.
    return { width: size.width, height: size.height };
  } catch {
    return undefined;
  }
};

/**
 * A file's metadata strings cut to what can be stored and indexed (a 3,000-character camera make
 * would exceed an index key): the photo is kept with the value shortened, never refused, since
 * clients such as the CLI retry a refused file forever.
 */
const boundStrings = (exif: ExifInfo): ExifInfo => {
  const bounded: ExifInfo = { ...exif };
  for (const key of Object.keys(bounded) as (keyof ExifInfo)[]) {
    const value = bounded[key];
    if (typeof value === 'string')
      Object.assign(bounded, { [key]: truncate(value, key === 'description' ? limits.description : limits.exifText) });
  }
  return bounded;
};

/**
 * What Immich's metadata job reads of a file. `file` may be a file's beginning (and a video's
 * boxes without their media data), read in ranges: `size` is then the whole file's size.
 */
/**
 * Reads a file's metadata the way Immich's metadata extraction (exiftool) reports it. The
 * sidecar's XMP is read after the file's and wins wherever both have a value.
 */
export const extractMetadata = async (file: Buffer, sidecar?: Buffer, size = file.length): Promise<Metadata> => {
  const embedded = await readTags(file);
  const fromSidecar = sidecar ? await readSidecar(sidecar) : {};
  if (fromSidecar === undefined) throw new InvalidSidecarError('sidecar is not XMP');
  const tags: Tags = { ...embedded, ...fromSidecar };
  const container = isIsoVideo(file) ? readContainer(file) : {};
  const dimensions = dimensionsOf(file);

  let latitude = coordinate(tags.GPSLatitude, tags.GPSLatitudeRef);
  let longitude = coordinate(tags.GPSLongitude, tags.GPSLongitudeRef);
  if (typeof tags.latitude === 'number' && typeof tags.longitude === 'number' && !('GPSLatitude' in fromSidecar)) {
    latitude = tags.latitude;
    longitude = tags.longitude;
  }
  if (latitude === null && container.latitude !== undefined && container.longitude !== undefined) {
    latitude = container.latitude;
    longitude = container.longitude;
  }
  // Immich drops 0,0 (a camera without a fix) and anything off the globe.
  if (
    (latitude === 0 && longitude === 0) ||
    (latitude !== null && Math.abs(latitude) > 90) ||
    (longitude !== null && Math.abs(longitude) > 180)
  ) {
    latitude = null;
    longitude = null;
  }
  const zone = latitude !== null && longitude !== null ? await zoneAt(latitude, longitude) : undefined;

  // exiftool's order (Immich's EXIF_DATE_TAGS): the original's date with its fraction of a second,
  // then the digitized date, Apple's creation date, XMP's, and a video's movie header.
  const clock =
    parseWallClock(withSubSeconds(tags.DateTimeOriginal, tags.SubSecTimeOriginal), tags.OffsetTimeOriginal) ??
    parseWallClock(withSubSeconds(tags.CreateDate, tags.SubSecTimeDigitized), tags.OffsetTimeDigitized) ??
    parseWallClock(container.creationDate) ??
    parseWallClock(tags.DateCreated);
  const taken = clock ? takenFromWallClock(clock, zone) : container.createdAt ? takenFromInstant(container.createdAt, zone) : undefined;
  // Dates without an offset of their own are in the file's one zone (exiftool-vendored infers one per file).
  const modifiedClock = parseWallClock(withSubSeconds(tags.ModifyDate, tags.SubSecTime), tags.OffsetTime);
  const fileOffset = modifiedClock?.offset ?? clock?.offset;
  const modified = modifiedClock
    ? takenFromWallClock(fileOffset === undefined ? modifiedClock : { ...modifiedClock, offset: fileOffset }, zone)
    : undefined;
  const timeZone = taken?.timeZone ?? null;

  const width = number(tags.ExifImageWidth) ?? number(tags.ImageWidth) ?? container.width ?? dimensions?.width ?? null;
  const height = number(tags.ExifImageHeight) ?? number(tags.ImageHeight) ?? container.height ?? dimensions?.height ?? null;
  const projection = text(tags.ProjectionType);
  const orientation =
    container.rotation !== undefined
      ? orientationOfRotation(container.rotation)
      : number(tags.Orientation) === null
        ? null
        : String(number(tags.Orientation));

  const exif: ExifInfo = {
    make: text(tags.Make) ?? container.make ?? null,
    model: text(tags.Model) ?? container.model ?? null,
    exifImageWidth: width,
    exifImageHeight: height,
    fileSizeInByte: size,
    orientation,
    dateTimeOriginal: taken ? taken.instant.toISOString() : null,
    modifyDate: modified ? modified.instant.toISOString() : null,
    timeZone,
    lensModel: text(tags.LensModel),
    fNumber: number(tags.FNumber),
    focalLength: number(tags.FocalLength),
    iso: number(Array.isArray(tags.ISO) ? tags.ISO[0] : tags.ISO),
    exposureTime: exposure(tags.ExposureTime),
    latitude,
    longitude,
    // No geocoder here: the location names the file itself carries (XMP photoshop:, IPTC), its
    // country named as geocoded countries are (docs/places.md, "One country, one name").
    city: repairUtf8(text(tags.City)),
    state: repairUtf8(text(tags.State)),
    country: canonicalCountry(repairUtf8(text(tags.Country)), text(tags.CountryCode)),
    description: text(fromSidecar.description) ?? text(tags.ImageDescription) ?? text(tags.description) ?? text(tags.Description) ?? '',
    projectionType: projection ? projection.toUpperCase() : null,
    rating: starRating(tags.Rating),
  };

  return {
    exif: boundStrings(exif),
    ...(taken ? { takenAt: { instant: taken.instant.toISOString(), localDateTime: taken.local.toISOString(), timeZone } } : {}),
    faces: faceRegionsOf(tags, width && height ? { width, height } : undefined),
    ...(container.durationSeconds !== undefined ? { duration: Math.round(container.durationSeconds * 1000) } : {}),
  };
};
