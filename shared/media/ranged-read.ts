/**
 * What the metadata reader needs of a large file, read in ranges instead of whole (upload
 * sessions, docs/large-uploads.md). EXIF and XMP are near a file's start; a video's metadata is
 * in its `moov` box, which may come after the media data (`mdat`) at the very end. So: a video
 * (an ISO base media file that is not an image) is walked box by box from its 16-byte headers
 * and every top-level box but its media data is read, joined into a buffer the container reader
 * parses as it would the whole file; anything else is read from its start.
 */
import { isHeif } from './heif.ts';

/** Reads bytes `start`..`end` (inclusive) of the file. */
export type RangeReader = (start: number, end: number) => Promise<Buffer>;

/** How much of a file's start holds its EXIF, XMP and image header (JPEG, HEIF, TIFF-based raw files). */
const headBytes = 4 * 1024 * 1024;
// Top-level boxes a video is read without: its media data and padding.
const skippedBoxes = new Set(['mdat', 'free', 'skip', 'wide']);
// A `moov` is kilobytes to a few megabytes (its sample tables grow with the video's length).
const largestBox = 64 * 1024 * 1024;
const mostBoxes = 64;

const isIsoBmff = (head: Buffer): boolean => head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp';

export const readForMetadata = async (read: RangeReader, size: number): Promise<Buffer> => {
  const head = await read(0, Math.min(size, headBytes) - 1);
  if (size <= headBytes || !isIsoBmff(head) || isHeif(head)) return head;
  const kept: Buffer[] = [];
  let at = 0;
  for (let boxes = 0; at + 8 <= size && boxes < mostBoxes; boxes++) {
    const header = at + 16 <= head.length ? head.subarray(at, at + 16) : await read(at, Math.min(size, at + 16) - 1);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (boxSize === 1 && header.length >= 16) boxSize = Number(header.readBigUInt64BE(8));
    else if (boxSize === 0) boxSize = size - at;
    if (boxSize < 8 || at + boxSize > size) break;
    if (!skippedBoxes.has(type) && boxSize <= largestBox) {
      kept.push(at + boxSize <= head.length ? head.subarray(at, at + boxSize) : await read(at, at + boxSize - 1));
    }
    at += boxSize;
  }
  return Buffer.concat(kept);
};
