/**
 * The JPEG a camera embeds in its RAW file (DNG, NEF, CR2, ARW, ORF, RAF…): libvips here has no
 * RAW decoder, and the camera's own preview, full or nearly full size, is what Immich shows until
 * it converts the RAW itself. RAW files are TIFF-like containers whose previews sit in IFDs or
 * maker notes that differ per maker, so instead of one parser per maker the file is searched for
 * JPEG streams (a start-of-image marker followed by a valid frame header) and the largest is taken.
 */

/** Frame headers: baseline, extended, progressive and lossless (not DHT, JPG or DAC). */
const isFrameMarker = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

/** The width and height of a JPEG stream starting at `at`, or undefined when its markers do not add up. */
const jpegSizeAt = (data: Buffer, at: number): { width: number; height: number } | undefined => {
  let offset = at + 2;
  for (let segments = 0; segments < 64 && offset + 9 <= data.length; segments++) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    if (length < 2) return undefined;
    if (isFrameMarker(marker)) {
      const height = data.readUInt16BE(offset + 5);
      const width = data.readUInt16BE(offset + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    offset += 2 + length;
  }
  return undefined;
};

/** How many candidates are looked at: a RAW file holds a few previews, its sensor data none. */
const maxCandidates = 200;

/** The largest embedded JPEG (from its start to the file's end: a decoder stops at its end marker), or undefined. */
export const embeddedPreview = (data: Buffer): Buffer | undefined => {
  let best: { at: number; area: number } | undefined;
  let at = data.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  for (let candidates = 0; at >= 0 && candidates < maxCandidates; candidates++) {
    const size = jpegSizeAt(data, at);
    if (size && size.width * size.height > (best?.area ?? 0)) best = { at, area: size.width * size.height };
    at = data.indexOf(Buffer.from([0xff, 0xd8, 0xff]), at + 3);
  }
  return best ? data.subarray(best.at) : undefined;
};
