/**
 * Where a file keeps its EXIF and XMP when exifr cannot find them itself: WebP's RIFF chunks
 * (`EXIF`, `XMP `), JPEG XL's container boxes (`Exif`, `xml `, and both Brotli-compressed in a
 * `brob` box) and GIF's XMP application extension. exiftool, which Immich's metadata job runs,
 * reads all three (docs/immich-compatibility.md, "Media"); exifr reads JPEG, TIFF, HEIF/AVIF and
 * PNG, and then parses the blocks found here.
 *
 * WebP: Google's "WebP Container Specification" (RIFF, little-endian chunk sizes, padded to an
 * even length; EXIF is a TIFF block, which some writers prefix with `Exif\0\0`). JPEG XL: ISO/IEC
 * 18181-2 (an ISO base media layout after the `JXL ` signature box; `Exif` starts with the 32-bit
 * offset of the TIFF header). GIF: Adobe's XMP specification part 3 (an application extension
 * `XMP DataXMP`, the packet written raw, followed by a 258-byte "magic trailer").
 */
import { brotliDecompressSync } from 'node:zlib';
import { boxesIn } from './iso-bmff.ts';

export interface MetadataBlocks {
  /** A TIFF block (`II*\0` / `MM\0*` and its IFDs): the file's EXIF. */
  tiff?: Buffer;
  /** The XMP packet, as text. */
  xmp?: string;
}

const isTiff = (data: Buffer): boolean =>
  data.length >= 8 && (data.toString('latin1', 0, 4) === 'II*\0' || data.toString('latin1', 0, 4) === 'MM\0*');

/** A TIFF block, with the `Exif\0\0` prefix some writers put before it dropped; undefined if it is none. */
const tiffOf = (data: Buffer): Buffer | undefined => {
  const block = data.toString('latin1', 0, 6) === 'Exif\0\0' ? data.subarray(6) : data;
  return isTiff(block) ? block : undefined;
};

// An XMP packet or a compressed box is metadata: more than this is not read (a Lambda's memory is the limit).
const largestBlock = 16 * 1024 * 1024;

const isWebp = (file: Buffer): boolean =>
  file.length >= 12 && file.toString('latin1', 0, 4) === 'RIFF' && file.toString('latin1', 8, 12) === 'WEBP';

const webpBlocks = (file: Buffer): MetadataBlocks => {
  const blocks: MetadataBlocks = {};
  for (let at = 12; at + 8 <= file.length; ) {
    const type = file.toString('latin1', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const end = Math.min(at + 8 + size, file.length);
    const payload = file.subarray(at + 8, end);
    if (type === 'EXIF') blocks.tiff ??= tiffOf(payload);
    else if (type === 'XMP ') blocks.xmp ??= payload.toString('utf8');
    at = at + 8 + size + (size % 2);
  }
  return blocks;
};

const jxlSignature = Buffer.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]);

const isJxlContainer = (file: Buffer): boolean => file.length >= 12 && file.subarray(0, 12).equals(jxlSignature);

const brotli = (data: Buffer): Buffer | undefined => {
  try {
    return brotliDecompressSync(data, { maxOutputLength: largestBlock });
  } catch {
    return undefined;
  }
};

const jxlBlocks = (file: Buffer): MetadataBlocks => {
  const blocks: MetadataBlocks = {};
  for (const box of boxesIn(file, 0, file.length)) {
    let type = box.type;
    let payload: Buffer | undefined = file.subarray(box.start, box.end);
    if (type === 'brob' && payload.length >= 4) {
      type = payload.toString('latin1', 0, 4);
      payload = type === 'Exif' || type === 'xml ' ? brotli(payload.subarray(4)) : undefined;
    }
    if (!payload) continue;
    if (type === 'Exif' && payload.length >= 4) {
      const offset = payload.readUInt32BE(0);
      if (4 + offset < payload.length) blocks.tiff ??= tiffOf(payload.subarray(4 + offset));
    } else if (type === 'xml ') blocks.xmp ??= payload.toString('utf8');
  }
  return blocks;
};

const isGif = (file: Buffer): boolean => file.length >= 6 && /^GIF8[79]a$/.test(file.toString('latin1', 0, 6));

const gifXmpId = Buffer.from('\x21\xff\x0bXMP DataXMP', 'latin1');

const gifBlocks = (file: Buffer): MetadataBlocks => {
  const at = file.indexOf(gifXmpId);
  if (at < 0) return {};
  const start = at + gifXmpId.length;
  // The packet ends with its `<?xpacket end…?>` (else the meta element); the magic trailer follows.
  const text = file.toString('utf8', start, Math.min(file.length, start + largestBlock));
  const end = text.search(/<\?xpacket end[^>]*\?>|<\/x:xmpmeta>/);
  if (end < 0) return {};
  const close = text.indexOf('>', end);
  return { xmp: text.slice(0, close + 1) };
};

/** The EXIF and XMP of a WebP, JPEG XL or GIF file (those exifr does not read); undefined for any other file. */
export const metadataBlocks = (file: Buffer): MetadataBlocks | undefined => {
  if (isWebp(file)) return webpBlocks(file);
  if (isJxlContainer(file)) return jxlBlocks(file);
  if (isGif(file)) return gifBlocks(file);
  return undefined;
};
