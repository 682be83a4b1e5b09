/**
 * Where a file's metadata is read (exifr, and the layouts of shared/media/metadata-blocks.ts and
 * shared/media/heif.ts), flattened into exiftool's names, and the one rule every number read
 * from a file goes through. What Immich's metadata job makes of the tags is shared/media/metadata.ts.
 */
import type * as Exifr from 'exifr/dist/full.esm.mjs';
import { heifExif, heifXmp, isHeif } from './heif.ts';
import { keywordPaths } from './keywords.ts';
import { metadataBlocks } from './metadata-blocks.ts';

export type Tags = Record<string, unknown>;

/** What one file says: its EXIF and IPTC, and its XMP, each flattened (exiftool's names where exifr's differ). */
export interface FileTags {
  exif: Tags;
  xmp: Tags;
}

// --- The one rule for numbers ---------------------------------------------------------------------

/** The largest integer Immich's columns hold (PostgreSQL `integer`: its `validate` drops the rest). */
export const int32Max = 2_147_483_647;

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
export const readTags = async (file: Buffer): Promise<FileTags> => {
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
/**
 * A sidecar's text: XMP may be written in UTF-8, UTF-16 or UTF-32 (XMP Specification Part 3, 1.1.5;
 * Windows' and some cataloguers' sidecars are UTF-16 with a byte-order mark, and exiftool, which
 * Immich reads them with, takes any of them). The mark tells, or else where the `<` of the first
 * character falls among the zero bytes.
 */
const sidecarText = (data: Buffer): string => {
  const swapped = (bytes: Buffer): Buffer => {
    const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
    return copy.swap16();
  };
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return data.subarray(3).toString('utf8');
  if (data[0] === 0xff && data[1] === 0xfe && data[2] === 0 && data[3] === 0) return utf32(data.subarray(4), true);
  if (data[0] === 0 && data[1] === 0 && data[2] === 0xfe && data[3] === 0xff) return utf32(data.subarray(4), false);
  if (data[0] === 0xff && data[1] === 0xfe) return data.subarray(2).toString('utf16le');
  if (data[0] === 0xfe && data[1] === 0xff) return swapped(data.subarray(2)).toString('utf16le');
  if (data[0] !== 0 && data[1] === 0 && data[2] !== 0) return data.toString('utf16le');
  if (data[0] === 0 && data[1] !== 0) return swapped(data).toString('utf16le');
  return data.toString('utf8');
};

const utf32 = (data: Buffer, littleEndian: boolean): string => {
  const points: number[] = [];
  for (let at = 0; at + 4 <= data.length; at += 4) {
    const point = littleEndian ? data.readUInt32LE(at) : data.readUInt32BE(at);
    points.push(point <= 0x10ffff ? point : 0xfffd);
  }
  return String.fromCodePoint(...points);
};

export const readSidecar = async (sidecar: Buffer): Promise<Tags | undefined> => {
  const packet = sidecarText(sidecar);
  if (!/<x:xmpmeta|<rdf:RDF/.test(packet)) return undefined;
  return readXmp(packet);
};

/**
 * Only the keywords of a file and its sidecar (the metadata refresh's read: shared/services/media/metadata-refresh.service.ts),
 * without what else extractMetadata reads; a sidecar that is no XMP is none.
 */
export const extractKeywords = async (file: Buffer, sidecar?: Buffer): Promise<string[]> => {
  const { exif, xmp } = await readTags(file);
  const fromSidecar = sidecar ? await readSidecar(sidecar) : undefined;
  const clean = (tags: Tags) => withoutUnstorable(tags) as Tags;
  return keywordPaths({ file: clean({ ...xmp, ...exif }), ...(fromSidecar ? { sidecar: clean(fromSidecar) } : {}) });
};
