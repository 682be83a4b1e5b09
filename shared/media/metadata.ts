import { imageSize } from 'image-size';
import { canonicalCountry } from '../domain/countries.ts';
import type { ExifInfo } from '../model/asset.ts';
import { limits, truncate } from '../model/limits.ts';
import { type FaceRegion, faceRegionsOf } from './faces.ts';
import { keywordPaths } from './keywords.ts';
import { type FileTags, int32Max, readSidecar, readTags, storable, type Tags, withoutUnstorable } from './metadata-read.ts';
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
const repairUtf8 = (value: string | null): string | null => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find text that is all Latin-1, control range included.
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
};

/** exiftool's ExposureTime print conversion, which Immich stores: `1/250`, `0.5`, `2`. */
const formatExposureTime = (seconds: number): string => {
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
    // No geocoder here: the location names the file itself carries (XMP photoshop:, IPTC), its
    // country named as geocoded countries are (docs/places.md, "One country, one name").
    city: repairUtf8(text(tags.City)),
    state: repairUtf8(text(tags.State)),
    country: canonicalCountry(repairUtf8(text(tags.Country)), text(tags.CountryCode)),
    description: text(sidecar?.description) ?? text(tags.ImageDescription) ?? text(tags.description) ?? text(tags.Description) ?? '',
    projectionType: projection ? projection.toUpperCase() : null,
    rating: starRating(tags.Rating),
  };

  return {
    exif: boundStrings(exif),
    ...(taken
      ? { takenAt: { instant: taken.instant.toISOString(), localDateTime: taken.local.toISOString(), timeZone: dates.timeZone } }
      : {}),
    faces: storableFaces(faceRegionsOf(tags, width && height ? { width, height } : undefined, orientation)),
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
