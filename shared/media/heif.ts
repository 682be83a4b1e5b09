/**
 * HEIF stills (iPhones' `.heic`, and AVIF): which codec the file's brand names, its EXIF item and its XMP item.
 * exifr finds the EXIF of files laid out as Apple writes them but ignores the iloc box's base
 * offset that libheif-written files (converters, Android, GIMP) use, so the item is located here
 * (ISO/IEC 23008-12: `iinf` names an item `Exif`, `iloc` says where its bytes are) and exifr reads
 * the TIFF block itself.
 */
import { boxesIn, child } from './iso-bmff.ts';

const hevcBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const heifBrands = new Set([...hevcBrands, 'mif1', 'msf1', 'avif', 'avis', 'miaf']);

const brandsOf = (data: Buffer): string[] => {
  if (data.length < 16 || data.toString('latin1', 4, 8) !== 'ftyp') return [];
  const size = Math.min(data.readUInt32BE(0), data.length);
  const brands = [data.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(data.toString('latin1', at, at + 4));
  return brands;
};

/** A HEIF file (any codec). */
export const isHeif = (data: Buffer): boolean => heifBrands.has(brandsOf(data)[0] ?? '');

/** A HEIF file whose images are HEVC-coded (`heic`…): libvips here has no HEVC decoder. */
export const isHevcHeif = (data: Buffer): boolean => brandsOf(data).some((brand) => hevcBrands.has(brand));

const uint = (data: Buffer, at: number, size: number): number => {
  if (size === 0) return 0;
  if (size === 2) return data.readUInt16BE(at);
  if (size === 4) return data.readUInt32BE(at);
  if (size === 8) return Number(data.readBigUInt64BE(at));
  throw new RangeError(`field size ${size}`);
};

/**
 * The id of the first item in `iinf` (item info entries version 2 or 3) of this type: `Exif`, or
 * `mime` of this content type (XMP is `application/rdf+xml`).
 */
const itemId = (data: Buffer, start: number, end: number, type: string, contentType?: string): number | undefined => {
  const version = data.readUInt8(start);
  const countSize = version === 0 ? 2 : 4;
  for (const infe of boxesIn(data, start + 4 + countSize, end)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = data.readUInt8(infe.start);
    if (infeVersion < 2) continue;
    const idSize = infeVersion === 3 ? 4 : 2;
    const typeAt = infe.start + 4 + idSize + 2;
    if (data.toString('latin1', typeAt, typeAt + 4) !== type) continue;
    if (contentType !== undefined) {
      // The item's name, then its content type, each ending with a NUL.
      const nameEnd = data.indexOf(0, typeAt + 4);
      const typeEnd = nameEnd < 0 ? -1 : data.indexOf(0, nameEnd + 1);
      if (typeEnd < 0 || typeEnd > infe.end || data.toString('latin1', nameEnd + 1, typeEnd) !== contentType) continue;
    }
    return uint(data, infe.start + 4, idSize);
  }
  return undefined;
};

/** The first extent of an item in `iloc` (stored in the file: construction method 0), base offset included. */
export const itemExtent = (data: Buffer, start: number, itemId: number): { offset: number; length: number } | undefined => {
  const version = data.readUInt8(start);
  let at = start + 4;
  const offsetSize = data.readUInt8(at) >> 4;
  const lengthSize = data.readUInt8(at) & 0xf;
  const baseOffsetSize = data.readUInt8(at + 1) >> 4;
  const indexSize = version === 0 ? 0 : data.readUInt8(at + 1) & 0xf;
  at += 2;
  const idSize = version === 2 ? 4 : 2;
  const count = uint(data, at, idSize);
  at += idSize;
  for (let item = 0; item < count; item++) {
    const id = uint(data, at, idSize);
    at += idSize;
    const method = version === 0 ? 0 : data.readUInt16BE(at) & 0xf;
    at += version === 0 ? 0 : 2;
    at += 2; // data reference index
    const base = uint(data, at, baseOffsetSize);
    at += baseOffsetSize;
    const extents = data.readUInt16BE(at);
    at += 2;
    const first = { offset: base + uint(data, at + indexSize, offsetSize), length: uint(data, at + indexSize + offsetSize, lengthSize) };
    at += extents * (indexSize + offsetSize + lengthSize);
    if (id === itemId) return method === 0 && extents > 0 ? first : undefined;
  }
  return undefined;
};

/** The bytes of a HEIF file's first item of this type (and content type), or undefined when it has none or the boxes do not add up. */
const itemBytes = (data: Buffer, type: string, contentType?: string): Buffer | undefined => {
  const meta = boxesIn(data, 0, data.length).find((box) => box.type === 'meta');
  const iinf = child(data, meta, 'iinf', 4);
  const iloc = child(data, meta, 'iloc', 4);
  if (!iinf || !iloc) return undefined;
  const id = itemId(data, iinf.start, iinf.end, type, contentType);
  const extent = id === undefined ? undefined : itemExtent(data, iloc.start, id);
  if (!extent || extent.offset + extent.length > data.length) return undefined;
  return data.subarray(extent.offset, extent.offset + extent.length);
};

/** A HEIF file's XMP packet (its `mime` item of type `application/rdf+xml`; exifr does not read it), or undefined. */
export const heifXmp = (data: Buffer): string | undefined => {
  try {
    return itemBytes(data, 'mime', 'application/rdf+xml')?.toString('utf8');
  } catch {
    return undefined;
  }
};

/** The TIFF block (EXIF) of a HEIF file, or undefined when it has none or the boxes do not add up. */
export const heifExif = (data: Buffer): Buffer | undefined => {
  try {
    const item = itemBytes(data, 'Exif');
    if (!item || item.length < 8) return undefined;
    // The item starts with the offset of the TIFF header within it (after any `Exif\0\0`).
    const tiff = item.subarray(4 + item.readUInt32BE(0));
    return /^(MM\0\*|II\*\0)/.test(tiff.toString('latin1', 0, 4)) ? tiff : undefined;
  } catch {
    return undefined;
  }
};
