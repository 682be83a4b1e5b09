import type * as Exifr from 'exifr/dist/full.esm.mjs';
import { imageSize } from 'image-size';
import type { ExifInfo } from '../model/asset.ts';
import { limits, truncate } from '../model/limits.ts';
import { type FaceRegion, faceRegionsOf } from './faces.ts';
import { heifExif, heifXmp, isHeif } from './heif.ts';
import { keywordPaths } from './keywords.ts';
import { metadataBlocks } from './metadata-blocks.ts';
import { type ContainerMetadata, isIsoVideo, orientationOfRotation, readContainer } from './quicktime.ts';
import { type DateSource, datesOfFile, instantOf, parseWallClock, withSubSeconds } from './taken.ts';

/** ExifResponseDto as Immich v1.100 stores it (`exif` table), minus the file size added by the caller. */

export interface Metadata {
  exif: ExifInfo;
  /** The moment the photo was taken (EXIF/XMP date with its offset), if the file says. */
  takenAt?: { instant: string; localDateTime: string; timeZone: string | null };
  faces: FaceRegion[];
  /** A video's length in milliseconds (Immich v3's), from its container. */
  duration?: number;
  /** The tag paths of the file's keywords (shared/media/keywords.ts), each once. */
  keywords: string[];
}

type Tags = Record<string, unknown>;

/** What one file says: its EXIF and IPTC, and its XMP, each flattened (exiftool's names where exifr's differ). */
export interface FileTags {
  exif: Tags;
  xmp: Tags;
}

// --- The one rule for numbers ---------------------------------------------------------------------

/** The largest integer Immich's columns hold (PostgreSQL `integer`: its `validate` drops the rest). */
const int32Max = 2_147_483_647;

/**
 * Whether a number can be stored: finite (a rational with a zero denominator reads as NaN or
 * ±Infinity, which DynamoDB cannot hold: an upload that carried one was a 500, retried forever),
 * at most `max` in size, and, if not zero, not below DynamoDB's smallest magnitude (1e-130).
 */
export const storable = (value: number, max = 1e125): boolean =>
  Number.isFinite(value) && Math.abs(value) <= max && (value === 0 || Math.abs(value) >= 1e-130);

/**
 * The rule applied to everything read from a file, its sidecar and its container before any of
 * it is used: a number that cannot be stored is no value (as Immich's `validate` drops NaN,
 * ±Infinity and numbers out of its columns' range). Lists keep their places (a coordinate's
 * degrees, minutes and seconds), so an unusable part leaves a gap the readers reject.
 */
export const withoutUnstorable = (value: unknown, depth = 0): unknown => {
  if (typeof value === 'number') return storable(value) ? value : undefined;
  if (value instanceof Date) return storable(value.getTime()) ? value : undefined;
  if (depth > 16 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((each) => withoutUnstorable(each, depth + 1));
  const kept: Tags = {};
  for (const [key, each] of Object.entries(value)) {
    const clean = withoutUnstorable(each, depth + 1);
    if (clean !== undefined) kept[key] = clean;
  }
  return kept;
};

/** A number from a tag (a list gives its first, a string its number, as Immich's `validate`), if storable within `max`. */
const number = (value: unknown, max = int32Max): number | null => {
  const first = Array.isArray(value) ? value[0] : value;
  const parsed = typeof first === 'string' && first.trim() !== '' ? Number(first) : first;
  return typeof parsed === 'number' && storable(parsed, max) ? parsed : null;
};

/** The file's star rating (EXIF or XMP `Rating`) as Immich keeps it: -1 (rejected) or 1 to 5; anything else is none. */
const starRating = (value: unknown): number | null => {
  const rating = number(value);
  return rating !== null && Number.isInteger(rating) && rating >= -1 && rating <= 5 && rating !== 0 ? rating : null;
};

// --- Reading ------------------------------------------------------------------------------------

const parseOptions = {
  tiff: true,
  exif: true,
  gps: true,
  // The packet as text, parsed apart (readXmp): exifr would merge its exif: properties into the
  // EXIF's, losing whichever it writes first (XMP's exif:GPSTimeStamp under EXIF's GPSTimeStamp).
  xmp: { parse: false },
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
  mergeOutput: false,
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

/** exiftool's ExposureTime print conversion, which Immich stores: `1/250`, `0.5`, `2`. */
export const formatExposureTime = (seconds: number): string => {
  if (seconds > 0 && seconds < 0.25001) return `1/${Math.floor(0.5 + 1 / seconds)}`;
  return String(Number(seconds.toFixed(1)));
};

const exposure = (value: unknown): string | null => {
  if (typeof value === 'string' && /^\d+\/\d+$/.test(value)) {
    const [a, b] = value.split('/').map(Number) as [number, number];
    return b === 0 || !storable(a / b) ? null : formatExposureTime(a / b);
  }
  const seconds = number(value, 1e9);
  return seconds === null ? null : formatExposureTime(seconds);
};

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
  // A list is degrees, minutes and seconds (exifr gives the decimal beside it): not a plain number.
  const parsed = Array.isArray(value) ? null : number(value, 1e9);
  if (parsed === null) return null;
  return typeof ref === 'string' && /^[SW]/i.test(ref) ? -Math.abs(parsed) : parsed;
};

interface Position {
  latitude: number;
  longitude: number;
}

/**
 * A position from tags: the XMP form (a sidecar's wins), else EXIF's (exifr's decimal `latitude`),
 * else the container's. As Immich: none at 0,0 (a camera without a fix), none off the globe, and
 * none unless both coordinates are numbers (an empty GPS block is no position).
 */
const positionOf = (tags: Tags, sidecar: Tags, container: ContainerMetadata): Position | undefined => {
  let latitude = coordinate(tags.GPSLatitude, tags.GPSLatitudeRef);
  let longitude = coordinate(tags.GPSLongitude, tags.GPSLongitudeRef);
  if (!('GPSLatitude' in sidecar) && number(tags.latitude, 90) !== null && number(tags.longitude, 180) !== null) {
    latitude = tags.latitude as number;
    longitude = tags.longitude as number;
  }
  if ((latitude === null || longitude === null) && container.latitude !== undefined && container.longitude !== undefined) {
    latitude = container.latitude;
    longitude = container.longitude;
  }
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) return undefined;
  if (!storable(latitude, 90) || !storable(longitude, 180)) return undefined;
  return { latitude, longitude };
};

const isRecord = (value: unknown): value is Tags => value !== null && typeof value === 'object' && !Array.isArray(value);

// XMP properties whose exifr names differ from exiftool's (those Immich's metadata job reads).
const xmpNames: Record<string, string> = {
  'exif:GPSTimeStamp': 'GPSDateTime',
  'lr:hierarchicalSubject': 'HierarchicalSubject',
  'dc:subject': 'Subject',
};

/** exifr's XMP, grouped by namespace, flattened (a later namespace's property over an earlier one's). */
const flattenXmp = (parsed: Tags): Tags => {
  const flat: Tags = {};
  for (const [namespace, value] of Object.entries(parsed)) {
    if (namespace === 'xmlns') continue;
    if (!isRecord(value)) flat[namespace] = value;
    else for (const [key, each] of Object.entries(value)) flat[xmpNames[`${namespace}:${key}`] ?? key] = each;
  }
  return flat;
};

/** IPTC's date (`20230601`) and time (`103000+0200`) as exiftool joins them (`DateTimeCreated`): both, or none. */
const iptcDateTime = (date: unknown, time: unknown): string | undefined => {
  const d = typeof date === 'string' ? /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date.trim()) : null;
  const t = typeof time === 'string' ? /^(\d{2}):?(\d{2}):?(\d{2})([+-]\d{2}:?\d{2}|Z)?$/.exec(time.trim()) : null;
  if (!d || !t) return undefined;
  const zone = t[4] && t[4] !== 'Z' ? `${t[4].slice(0, 3)}:${t[4].slice(-2)}` : (t[4] ?? '');
  return `${d[1]}:${d[2]}:${d[3]} ${t[1]}:${t[2]}:${t[3]}${zone}`;
};

/** EXIF's GPS date (`2023:06:01`) and time (hours, minutes, seconds) as exiftool's GPSDateTime (UTC). */
const gpsDateTime = (date: unknown, time: unknown): string | undefined => {
  if (typeof date !== 'string' || !/^\d{4}:\d{2}:\d{2}$/.test(date.trim()) || !Array.isArray(time)) return undefined;
  const [h, m, s] = time as unknown[];
  if (![h, m, s].every((part) => typeof part === 'number' && part >= 0 && part < 60)) return undefined;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  const fraction = (s as number) % 1 ? String((s as number) % 1).slice(1, 5) : '';
  return `${date.trim()} ${pad(h as number)}:${pad(m as number)}:${pad(s as number)}${fraction}Z`;
};

/** exifr's EXIF, GPS and IPTC groups flattened; IPTC's and GPS's dates joined as exiftool joins them. */
const flattenExif = (groups: Tags): Tags => {
  const flat: Tags = {};
  for (const [group, value] of Object.entries(groups)) {
    if (group === 'xmp' || group === 'errors' || group === 'iptc' || !isRecord(value)) continue;
    Object.assign(flat, value);
  }
  if (isRecord(groups.iptc)) {
    const { DateCreated, TimeCreated, DigitalCreationDate, DigitalCreationTime, ...iptc } = groups.iptc;
    Object.assign(flat, iptc);
    flat.DateTimeCreated = iptcDateTime(DateCreated, TimeCreated);
    flat.DigitalCreationDateTime = iptcDateTime(DigitalCreationDate, DigitalCreationTime);
  }
  flat.GPSDateTime = gpsDateTime(flat.GPSDateStamp, flat.GPSTimeStamp);
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

/** An XMP packet's properties (flattened), or undefined when it cannot be parsed. */
const readXmp = async (packet: string): Promise<Tags | undefined> => {
  const exifr = await exifrReader();
  try {
    const parsed: unknown = exifr.segmentParsers.get('xmp').parse(packet);
    return isRecord(parsed) ? flattenXmp(parsed) : {};
  } catch {
    return undefined;
  }
};

/** exifr's groups of a file (or of a TIFF block), or undefined when it cannot read it. */
const exifrGroups = async (data: Uint8Array): Promise<Tags | undefined> => {
  const exifr = await exifrReader();
  try {
    const groups: unknown = await exifr.parse(data, parseOptions);
    return isRecord(groups) ? groups : {};
  } catch {
    // Files exifr cannot read (videos, formats it does not know) simply have no embedded metadata.
    return undefined;
  }
};

/** A file's EXIF, IPTC and XMP, wherever its format keeps them. */
const readTags = async (file: Buffer): Promise<FileTags> => {
  const blocks = metadataBlocks(file);
  let groups = blocks ? (blocks.tiff ? await exifrGroups(new Uint8Array(blocks.tiff)) : {}) : await exifrGroups(standalone(file));
  if (!blocks && groups && 'errors' in groups && isHeif(file)) {
    // A HEIF file exifr could not find the EXIF of (docs: shared/media/heif.ts): its TIFF block directly.
    const tiff = heifExif(file);
    if (tiff) groups = await exifrGroups(new Uint8Array(tiff));
  }
  // exifr reads no XMP item of a HEIF file (HEIC, AVIF): its `mime` item directly.
  const packet = blocks ? blocks.xmp : typeof groups?.xmp === 'string' ? groups.xmp : isHeif(file) ? heifXmp(file) : undefined;
  return { exif: flattenExif(groups ?? {}), xmp: (packet && (await readXmp(packet))) || {} };
};

/** Tags of a sidecar, or undefined when it is not XMP at all. */
const readSidecar = async (sidecar: Buffer): Promise<Tags | undefined> => {
  const packet = sidecar.toString('utf8');
  if (!/<x:xmpmeta|<rdf:RDF/.test(packet)) return undefined;
  return readXmp(packet);
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

/** What was read of a file, before any of it is interpreted: the input of `metadataOf`. */
export interface ReadMetadata {
  file: FileTags;
  /** The sidecar's XMP, flattened. */
  sidecar?: Tags;
  /** A video's container. */
  container: ContainerMetadata;
  /** The image's own size, from its header. */
  dimensions?: ImageDimensions;
  /** The whole file's size. */
  size: number;
  /** Whether the file is a video (an ISO base media file that is not an image). */
  video: boolean;
}

/** The face regions of the output that can be stored (every number of each storable). */
const storableFaces = (faces: FaceRegion[]): FaceRegion[] =>
  faces.filter((face) => Object.values(face).every((value) => typeof value !== 'number' || storable(value, int32Max)));

/**
 * What Immich's metadata job makes of what was read (`extractMetadata` reads it): the EXIF record,
 * the date taken and its zone, faces, duration and keywords. Every number read is first held to
 * the one rule (`withoutUnstorable`), and every number of the answer is storable.
 */
export const metadataOf = async (read: ReadMetadata): Promise<Metadata> => {
  const file: FileTags = { exif: withoutUnstorable(read.file.exif) as Tags, xmp: withoutUnstorable(read.file.xmp) as Tags };
  const sidecar = read.sidecar === undefined ? undefined : (withoutUnstorable(read.sidecar) as Tags);
  const container = withoutUnstorable(read.container) as ContainerMetadata;
  const { size, dimensions, video } = read;
  const fileFlat: Tags = { ...file.xmp, ...file.exif };
  // The sidecar's XMP is read after the file's and wins wherever both have a value.
  const tags: Tags = { ...fileFlat, ...sidecar };

  const position = positionOf(tags, sidecar ?? {}, container);
  const filePosition = positionOf(fileFlat, {}, container);
  const sidecarPosition = sidecar ? positionOf(sidecar, sidecar, {}) : undefined;
  const fileSource: DateSource = { ...file, container, video, ...(filePosition ? { position: filePosition } : {}) };
  const sidecarSource: DateSource | undefined = sidecar && {
    exif: {},
    xmp: sidecar,
    video: false,
    ...(sidecarPosition ? { position: sidecarPosition } : {}),
  };
  const dates = await datesOfFile(fileSource, sidecarSource);
  const taken = dates.taken && storable(dates.taken.instant.getTime()) ? dates.taken : undefined;
  // ModifyDate without an offset of its own is in the file's zone (exiftool-vendored backfills every date).
  const modifiedClock = parseWallClock(withSubSeconds(tags.ModifyDate, tags.SubSecTime), tags.OffsetTime);
  const modified = modifiedClock ? instantOf(modifiedClock, dates.fileZone) : undefined;

  const width = number(tags.ExifImageWidth) ?? number(tags.ImageWidth) ?? number(container.width) ?? dimensions?.width ?? null;
  const height = number(tags.ExifImageHeight) ?? number(tags.ImageHeight) ?? number(container.height) ?? dimensions?.height ?? null;
  const projection = text(tags.ProjectionType);
  const rotation = number(container.rotation);
  const orientationTag = number(tags.Orientation);
  const orientation = rotation !== null ? orientationOfRotation(rotation) : orientationTag === null ? null : String(orientationTag);
  const durationMs = container.durationSeconds === undefined ? undefined : Math.round(container.durationSeconds * 1000);

  const exif: ExifInfo = {
    make: text(tags.Make) ?? container.make ?? null,
    model: text(tags.Model) ?? container.model ?? null,
    exifImageWidth: width,
    exifImageHeight: height,
    fileSizeInByte: size,
    orientation,
    dateTimeOriginal: taken ? taken.instant.toISOString() : null,
    modifyDate: modified && storable(modified.getTime()) ? modified.toISOString() : null,
    timeZone: dates.timeZone,
    lensModel: text(tags.LensModel),
    fNumber: number(tags.FNumber),
    focalLength: number(tags.FocalLength),
    iso: number(tags.ISO),
    exposureTime: exposure(tags.ExposureTime),
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    // No geocoder here: the location names the file itself carries (XMP photoshop:, IPTC).
    city: repairUtf8(text(tags.City)),
    state: repairUtf8(text(tags.State)),
    country: repairUtf8(text(tags.Country)),
    description: text(sidecar?.description) ?? text(tags.ImageDescription) ?? text(tags.description) ?? text(tags.Description) ?? '',
    projectionType: projection ? projection.toUpperCase() : null,
    rating: starRating(tags.Rating),
  };

  return {
    exif: boundStrings(exif),
    ...(taken
      ? { takenAt: { instant: taken.instant.toISOString(), localDateTime: taken.local.toISOString(), timeZone: dates.timeZone } }
      : {}),
    faces: storableFaces(faceRegionsOf(tags, width && height ? { width, height } : undefined)),
    ...(durationMs !== undefined && storable(durationMs, Number.MAX_SAFE_INTEGER) ? { duration: durationMs } : {}),
    keywords: keywordPaths({ file: fileFlat, ...(sidecar ? { sidecar } : {}) }),
  };
};

/**
 * Reads a file's metadata the way Immich's metadata extraction (exiftool) reports it. The
 * sidecar's XMP is read after the file's and wins wherever both have a value. `file` may be a
 * file's beginning (and a video's boxes without their media data), read in ranges: `size` is
 * then the whole file's size.
 */
export const extractMetadata = async (file: Buffer, sidecar?: Buffer, size = file.length): Promise<Metadata> => {
  const fileTags = await readTags(file);
  const fromSidecar = sidecar ? await readSidecar(sidecar) : undefined;
  if (sidecar && fromSidecar === undefined) throw new InvalidSidecarError('sidecar is not XMP');
  const video = isIsoVideo(file);
  const dimensions = dimensionsOf(file);
  return metadataOf({
    file: fileTags,
    ...(fromSidecar ? { sidecar: fromSidecar } : {}),
    container: video ? readContainer(file) : {},
    ...(dimensions ? { dimensions } : {}),
    size,
    video,
  });
};
