/**
 * The video inside a motion photo, as Immich's metadata job extracts it (docs/immich-compatibility.md,
 * "Media"): Google's MotionPhoto / MicroVideo JPEGs and Samsung's (One UI) JPEGs carry an MP4
 * appended after the picture (Samsung's behind a `MotionPhoto_Data` marker, followed by its own
 * trailer); Samsung's HEIC files carry it in a top-level `mpvd` box. The MP4 is found by its
 * boxes: an `ftyp` box followed by boxes that add up, with a `moov` and an `mdat`, so a stray
 * `ftyp` in the picture's bytes is never taken for a video.
 */
import { boxesIn } from './iso-bmff.ts';
import type { RangeReader } from './ranged-read.ts';

/** Boxes that may follow `ftyp` at the top level of an MP4. */
const topLevel = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'uuid', 'meta', 'pnot', 'udta', 'mfra', 'moof', 'sidx']);

/** The MP4 starting at `start` (its `ftyp` box) up to the last box that belongs to it, or undefined. */
const mp4At = (data: Buffer, start: number): Buffer | undefined => {
  let end = start;
  const seen = new Set<string>();
  for (const box of boxesIn(data, start, data.length)) {
    const headerStart = end;
    if (!topLevel.has(box.type) || box.start - headerStart > 16) break;
    seen.add(box.type);
    end = box.end;
  }
  return seen.has('ftyp') && seen.has('moov') && seen.has('mdat') ? data.subarray(start, end) : undefined;
};

const ftyp = Buffer.from('ftyp');
const samsungMarker = 'MotionPhoto_Data';

/** The embedded video of a motion photo (JPEG or HEIC), or undefined when the file has none. */
export const motionVideoOf = (data: Buffer): Buffer | undefined => {
  if (data.length < 16) return undefined;
  // HEIC (Samsung): the `mpvd` box holds the MP4.
  if (data.toString('latin1', 4, 8) === 'ftyp') {
    const mpvd = boxesIn(data, 0, data.length).find((box) => box.type === 'mpvd');
    return mpvd ? mp4At(data, mpvd.start) : undefined;
  }
  // JPEG: the first `ftyp` box after which a whole MP4 follows.
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  for (let at = data.indexOf(ftyp, 12); at >= 4; at = data.indexOf(ftyp, at + 4)) {
    const video = mp4At(data, at - 4);
    if (video) return video;
  }
  return undefined;
};

/**
 * The container of an extracted motion video, by its `ftyp` box's major brand: QuickTime (`qt  `)
 * is a `.mov`, anything else (`isom`, `mp42`, `mp41`…: what Google's and Samsung's cameras write)
 * an `.mp4`. The extension names the hidden video asset and types it when served
 * (docs/immich-compatibility.md, "Media").
 */
export const motionVideoExtension = (video: Buffer): '.mov' | '.mp4' =>
  video.length >= 12 && video.toString('latin1', 4, 8) === 'ftyp' && video.toString('latin1', 8, 12) === 'qt  ' ? '.mov' : '.mp4';

// --- The same video found by ranged reads (a file streamed to storage, never whole in memory) ---

/** An inclusive byte range of a file, as {@link RangeReader} and HTTP/S3 ranges take it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Bytes the ranged search reads at a time when a box header is not in a buffer it already has. */
const chunkBytes = 4 * 1024;
/** The file's end read first: Samsung's SEF trailer (its directory is some hundred bytes). */
const tailBytes = 64 * 1024;
/** A JPEG's XMP is in its first segments: with a shorter head, this much of the file's start is read. */
const frontBytes = 256 * 1024;
/** A SEF directory longer than this is not one. */
const largestSefBytes = 1024 * 1024;
/** A JPEG without a directory (XMP or SEF) is searched for an `ftyp` in its last MiB only. */
const scanBytes = 1024 * 1024;
/** Top-level boxes walked (an MP4's, a HEIC's) and `ftyp` candidates tried, at most. */
const mostBoxes = 64;
const mostCandidates = 16;

/** The video's bytes {@link readMotionVideo} reads into memory, at most: larger ones are the caller's to copy by range. */
export const motionVideoReadLimit = 64 * 1024 * 1024;

/** A reader that answers from the buffers it has (the head, earlier reads) and reads the rest in chunks. */
const cachedReader = (read: RangeReader, size: number, head: Buffer) => {
  const held: { from: number; data: Buffer }[] = [{ from: 0, data: head.subarray(0, Math.min(head.length, size)) }];
  /** Bytes `start`..`end` (inclusive, clipped to the file), reading at least `chunkBytes` when they are not held. */
  const bytes = async (start: number, end: number): Promise<Buffer> => {
    const last = Math.min(end, size - 1);
    if (last < start) return Buffer.alloc(0);
    const hit = held.find(({ from, data }) => from <= start && last < from + data.length);
    if (hit) return hit.data.subarray(start - hit.from, last + 1 - hit.from);
    const data = await read(start, Math.max(last, Math.min(size - 1, start + chunkBytes - 1)));
    held.push({ from: start, data });
    return data.subarray(0, last + 1 - start);
  };
  /** Keeps bytes read elsewhere (the tail) for later lookups. */
  const keep = (from: number, data: Buffer) => held.push({ from, data });
  return { bytes, keep };
};
type Reader = ReturnType<typeof cachedReader>;

/** A top-level box header at `at` of a file of `size` bytes, as `boxesIn` reads it, or undefined where it stops. */
const boxAt = async (reader: Reader, size: number, at: number): Promise<{ type: string; start: number; end: number } | undefined> => {
  if (at + 8 > size) return undefined;
  const header = await reader.bytes(at, at + 15);
  let boxSize = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  let headerSize = 8;
  if (boxSize === 1) {
    if (at + 16 > size) return undefined;
    boxSize = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  } else if (boxSize === 0) {
    boxSize = size - at;
  }
  if (boxSize < headerSize || at + boxSize > size) return undefined;
  return { type, start: at + headerSize, end: at + boxSize };
};

/** `mp4At` by ranged reads: the MP4 whose `ftyp` box starts at `start`, up to the last box that belongs to it. */
const rangedMp4At = async (reader: Reader, size: number, start: number): Promise<ByteRange | undefined> => {
  let end = start;
  const seen = new Set<string>();
  for (let boxes = 0; boxes < mostBoxes; boxes++) {
    const box = await boxAt(reader, size, end);
    if (!box || !topLevel.has(box.type)) break;
    seen.add(box.type);
    end = box.end;
  }
  return seen.has('ftyp') && seen.has('moov') && seen.has('mdat') ? { start, end: end - 1 } : undefined;
};

/** The text of a JPEG's XMP segments (APP1 `http://ns.adobe.com/xap/1.0/`) within `head`, before its image data. */
const jpegXmp = (head: Buffer): string => {
  const packets: string[] = [];
  for (let at = 2; at + 4 <= head.length && head[at] === 0xff; ) {
    const marker = head[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = head.readUInt16BE(at + 2);
    if (marker === 0xe1 && head.toString('latin1', at + 4, at + 4 + xmpId.length) === xmpId) {
      packets.push(head.toString('utf8', at + 4 + xmpId.length, Math.min(head.length, at + 2 + length)));
    }
    at += 2 + length;
  }
  return packets.join('');
};
const xmpId = 'http://ns.adobe.com/xap/1.0/\0';

/** An XMP property's number, written as an attribute (`ns:Name="12"`) or an element (`<ns:Name>12</ns:Name>`). */
const xmpNumber = (text: string, name: string): number | undefined => {
  const found = new RegExp(`:${name}\\s*=\\s*["'](\\d+)["']|:${name}>\\s*(\\d+)\\s*<`).exec(text);
  return found ? Number(found[1] ?? found[2]) : undefined;
};
const xmpText = (text: string, name: string): string | undefined => {
  const found = new RegExp(`:${name}\\s*=\\s*["']([^"']*)["']|:${name}>([^<]*)<`).exec(text);
  return found ? (found[1] ?? found[2]) : undefined;
};

/**
 * Where the XMP says the video starts: Google's container directory (`Container:Directory`, or
 * the older `GContainer:Directory`), whose items follow the primary image in order, each `Length`
 * bytes and then `Padding` bytes, the last one ending at the file's end — the video is the item
 * with the `MotionPhoto` semantic, or the last `video/` one; and the older `MicroVideoOffset`
 * (the video's distance from the file's end). Each is only a candidate: the MP4 is checked there.
 */
const xmpCandidates = (xmp: string, size: number): number[] => {
  const candidates: number[] = [];
  const items = xmp
    .split(/<[\w-]+:Item(?=[\s/>])/)
    .slice(1)
    .map((item) => ({
      semantic: xmpText(item, 'Semantic'),
      mime: xmpText(item, 'Mime'),
      length: xmpNumber(item, 'Length') ?? 0,
      padding: xmpNumber(item, 'Padding') ?? 0,
    }));
  let index = items.findIndex((item) => item.semantic === 'MotionPhoto');
  if (index < 0) index = items.findLastIndex((item) => item.mime?.startsWith('video/') === true);
  const video = index > 0 ? items[index] : undefined;
  if (video && video.length > 0) {
    const after = items.slice(index + 1).reduce((sum, item) => sum + item.length + item.padding, 0);
    const { length, padding } = video;
    // The padding after the video (Immich's reading), or none.
    candidates.push(size - after - length - padding, size - after - length);
  }
  const offset = xmpNumber(xmp, 'MicroVideoOffset');
  if (offset) candidates.push(size - offset);
  return candidates;
};

/**
 * Where Samsung's SEF trailer says the video starts: the file ends with the directory's length
 * (32-bit little-endian) and `SEFT`; the directory (`SEFH`, version, count, then 12-byte entries:
 * type, offset back from `SEFH`, length) names each block, and the `MotionPhoto_Data` block is
 * its 8-byte header, that name, then the MP4.
 */
const sefCandidate = async (reader: Reader, size: number, tail: Buffer, tailFrom: number): Promise<number | undefined> => {
  if (tail.length < 8 || tail.toString('latin1', tail.length - 4) !== 'SEFT') return undefined;
  const directoryLength = tail.readUInt32LE(tail.length - 8);
  const sefh = size - 8 - directoryLength;
  if (directoryLength < 12 || directoryLength > largestSefBytes || sefh < 0) return undefined;
  const directory = sefh >= tailFrom ? tail.subarray(sefh - tailFrom, tail.length - 8) : await reader.bytes(sefh, size - 9);
  if (directory.toString('latin1', 0, 4) !== 'SEFH') return undefined;
  const count = directory.readUInt32LE(8);
  const entries = Math.min(count, mostBoxes);
  for (let entry = 12; entry + 12 <= directory.length && entry < 12 + entries * 12; entry += 12) {
    const blockAt = sefh - directory.readUInt32LE(entry + 4);
    if (blockAt < 0 || blockAt + 8 > sefh) continue;
    const header = await reader.bytes(blockAt, blockAt + 8 + 64 - 1);
    const nameLength = header.readUInt32LE(4);
    if (header.toString('latin1', 8, 8 + nameLength) === samsungMarker) return blockAt + 8 + nameLength;
  }
  return undefined;
};

/**
 * The byte range (inclusive, as {@link RangeReader} and S3's `Range` take it) of a motion photo's
 * embedded video — the range {@link motionVideoOf} answers for the whole file — found with a few
 * small ranged reads instead of the whole file in memory (a large upload streamed to storage,
 * docs/large-uploads.md "Metadata by ranged reads"):
 *
 * - `read(start, end)` reads the file's bytes `start`..`end` (inclusive), e.g. a ranged S3 GET;
 * - `size` is the file's length;
 * - `head` is the file's first bytes the caller already has — for an image, what
 *   shared/media/ranged-read.ts `readForMetadata` answers (its first 4 MiB) — where a JPEG keeps
 *   its XMP; bytes in it are not read again (a head under 256 KiB: the file's first 256 KiB are read).
 *
 * Samsung's HEIC: its top-level boxes are walked to the `mpvd` box. A JPEG: the candidates its
 * XMP gives (Google's container directory: its `MotionPhoto` item's `Length` and `Padding` from
 * the file's end, as Immich reads it; `MicroVideoOffset`), else Samsung's SEF trailer at the
 * file's end (its `MotionPhoto_Data` block), else (no camera writes such a file) the first `ftyp`
 * in the file's last 1 MiB. A candidate is taken only where a whole MP4 is (an `ftyp`, maybe
 * behind a `MotionPhoto_Data` marker, then boxes that add up with a `moov` and an `mdat`), and
 * the range ends at its last box, as `motionVideoOf` does.
 *
 * The bound (a phone's Pixel or Samsung JPEG: 1 to 5 reads, 4 to 80 KiB): one read of 4 KiB for
 * each box header outside the buffers already held (at most 64 boxes per walk, each of at most
 * three XMP candidates); without an XMP directory, a read of the file's last 64 KiB, one more for
 * a SEF directory longer than that, one per SEF entry (at most 64); without either, a read of the
 * last 1 MiB, at most 16 `ftyp`s tried there. The video
 * itself is never read: pass the range to {@link readMotionVideo}, or copy it (S3 UploadPartCopy's
 * `CopySourceRange` takes the same inclusive range).
 */
export const motionVideoRange = async (read: RangeReader, size: number, head: Buffer): Promise<ByteRange | undefined> => {
  if (size < 16) return undefined;
  const reader = cachedReader(read, size, head);
  const start = await reader.bytes(0, 15);
  // HEIC (Samsung): the MP4 is in the `mpvd` box.
  if (start.toString('latin1', 4, 8) === 'ftyp') {
    for (let at = 0, boxes = 0; boxes < mostBoxes; boxes++) {
      const box = await boxAt(reader, size, at);
      if (!box) return undefined;
      if (box.type === 'mpvd') return rangedMp4At(reader, size, box.start);
      at = box.end;
    }
    return undefined;
  }
  if (start[0] !== 0xff || start[1] !== 0xd8) return undefined;
  // An MP4 at `at`, or right after a `MotionPhoto_Data` marker there (a directory counting it in).
  const ftypAt = async (at: number): Promise<ByteRange | undefined> => {
    if (at < 8 || at + 8 > size) return undefined;
    const header = await reader.bytes(at, at + samsungMarker.length + 7);
    if (header.toString('latin1', 4, 8) === 'ftyp') return rangedMp4At(reader, size, at);
    if (header.toString('latin1', 0, samsungMarker.length) === samsungMarker) return ftypAt(at + samsungMarker.length);
    return undefined;
  };
  // The XMP's candidates, the earliest MP4 among them (motionVideoOf takes the first in the file).
  const front = head.length >= Math.min(size, frontBytes) ? head : await reader.bytes(0, frontBytes - 1);
  const fromXmp = await Promise.all([...new Set(xmpCandidates(jpegXmp(front), size))].map(ftypAt));
  const found = fromXmp.filter((range) => range !== undefined).sort((a, b) => a.start - b.start)[0];
  if (found) return found;
  // Samsung's trailer.
  const tailFrom = Math.max(0, size - tailBytes);
  const tail = await reader.bytes(tailFrom, size - 1);
  reader.keep(tailFrom, tail);
  const sef = await sefCandidate(reader, size, tail, tailFrom);
  const fromSef = sef === undefined ? undefined : await ftypAt(sef);
  if (fromSef) return fromSef;
  // No directory: the first whole MP4 in the last MiB.
  const scanFrom = Math.max(0, size - scanBytes);
  const scanned = scanFrom >= tailFrom ? tail : await reader.bytes(scanFrom, size - 1);
  reader.keep(scanFrom, scanned);
  let tried = 0;
  for (let at = scanned.indexOf(ftyp, Math.max(0, 12 - scanFrom)); at >= 0 && tried < mostCandidates; at = scanned.indexOf(ftyp, at + 4)) {
    const mp4 = await ftypAt(scanFrom + at - 4);
    if (mp4) return mp4;
    tried++;
  }
  return undefined;
};

/**
 * The embedded video of a motion photo read by ranges (see {@link motionVideoRange} for the
 * arguments and the reads), as `motionVideoOf` answers it; undefined when the file has none, or
 * when the video is longer than `limit` bytes (default 64 MiB, a phone's motion clip is a few
 * MiB): a caller with less memory passes its own limit, and copies larger ones by range instead.
 */
export const readMotionVideo = async (
  read: RangeReader,
  size: number,
  head: Buffer,
  limit = motionVideoReadLimit,
): Promise<Buffer | undefined> => {
  const range = await motionVideoRange(read, size, head);
  if (!range || range.end - range.start + 1 > limit) return undefined;
  return range.end < head.length ? head.subarray(range.start, range.end + 1) : read(range.start, range.end);
};
