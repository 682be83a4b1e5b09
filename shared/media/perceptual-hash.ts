/**
 * Perceptual hashes of an image (docs/immich-compatibility.md, "Duplicates"): what finds the
 * same photo saved again (resized, recompressed, another format, a few pixels cropped) without any
 * machine learning. Two hashes of the upright preview's pixels, both needed to agree:
 * - pHash-64: the image in grey at 32×32, its 2-D DCT-II, the 8×8 lowest frequencies; a bit per
 *   coefficient, set when it is above the median of the 63 without the DC term (the DC term's
 *   own bit is the brightness against that median: nearly always set).
 * - dHash-128: the image in grey at 9×9; 64 bits of row gradients (a pixel darker than its right
 *   neighbour, 8×8) then 64 of column gradients (darker than the one below, 8×8).
 * Distance is the number of differing bits (Hamming). Stored as 24 bytes: pHash then dHash.
 * Pure code: shared/media/image-hash.ts decodes the image (wasm-vips, the media function only).
 */
export interface PerceptualHash {
  /** 8 bytes, bit i of the 64 at byte i >> 3, bit 7 - (i & 7). */
  phash: Uint8Array;
  /** 16 bytes, the same order. */
  dhash: Uint8Array;
}

/** Two images are the same photo when both hashes are this close (measured: docs/immich-compatibility.md, "Duplicates"). */
export const duplicateThresholds = { phash: 10, dhash: 20 } as const;

/** The sides of the grey squares the two hashes read. */
export const dctSize = 32;
export const dhashSize = 9;
const lowSize = 8;

/** cos((2x + 1) u π / 2N) for u < 8, x < 32: the DCT's basis, computed once. */
const basis = (() => {
  const table = new Float64Array(lowSize * dctSize);
  for (let u = 0; u < lowSize; u++)
    for (let x = 0; x < dctSize; x++) table[u * dctSize + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * dctSize));
  return table;
})();

const packBits = (bits: readonly boolean[]): Uint8Array => {
  const bytes = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i & 7));
  });
  return bytes;
};

/** pHash-64 of a 32×32 grey image (row by row). */
export const phashOfGrey = (grey: Uint8Array): Uint8Array => {
  if (grey.length !== dctSize * dctSize) throw new Error(`pHash needs ${dctSize}×${dctSize} pixels`);
  // Separable DCT: rows first (8 frequencies of each of the 32 rows), then columns.
  const rows = new Float64Array(dctSize * lowSize);
  for (let y = 0; y < dctSize; y++)
    for (let v = 0; v < lowSize; v++) {
      let sum = 0;
      for (let x = 0; x < dctSize; x++) sum += (grey[y * dctSize + x] ?? 0) * (basis[v * dctSize + x] ?? 0);
      rows[y * lowSize + v] = sum;
    }
  const coefficients: number[] = [];
  for (let u = 0; u < lowSize; u++)
    for (let v = 0; v < lowSize; v++) {
      let sum = 0;
      for (let y = 0; y < dctSize; y++) sum += (rows[y * lowSize + v] ?? 0) * (basis[u * dctSize + y] ?? 0);
      coefficients.push(sum);
    }
  const ac = coefficients.slice(1).sort((a, b) => a - b);
  const median = ac[Math.floor(ac.length / 2)] ?? 0;
  return packBits(coefficients.map((value) => value > median));
};

/** dHash-128 of a 9×9 grey image (row by row). */
export const dhashOfGrey = (grey: Uint8Array): Uint8Array => {
  if (grey.length !== dhashSize * dhashSize) throw new Error('dHash needs 9×9 pixels');
  const at = (x: number, y: number): number => grey[y * 9 + x] ?? 0;
  const bits: boolean[] = [];
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(at(x, y) < at(x + 1, y));
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(at(x, y) < at(x, y + 1));
  return packBits(bits);
};

/**
 * Below this standard deviation of its grey 32×32 pixels (0–255) an image is flat — one colour, a
 * black frame, a photo taken in a pocket — and has no hash: its bits would be rounding noise (or
 * all zero), and every flat image would be every other's duplicate.
 */
export const flatDeviation = 2;

const deviation = (grey: Uint8Array): number => {
  let sum = 0;
  let squares = 0;
  for (const value of grey) {
    sum += value;
    squares += value * value;
  }
  const mean = sum / grey.length;
  return Math.sqrt(Math.max(0, squares / grey.length - mean * mean));
};

/** Both hashes of an image's grey squares (32×32 and 9×9); undefined for a flat image. */
export const hashOfGreys = (big: Uint8Array, small: Uint8Array): PerceptualHash | undefined =>
  deviation(big) < flatDeviation ? undefined : { phash: phashOfGrey(big), dhash: dhashOfGrey(small) };

/** The stored form: 24 bytes, pHash then dHash. */
export const packHash = (hash: PerceptualHash): Uint8Array => {
  const bytes = new Uint8Array(24);
  bytes.set(hash.phash, 0);
  bytes.set(hash.dhash, 8);
  return bytes;
};

/** The stored form read back (undefined for bytes of another length). */
export const unpackHash = (bytes: Uint8Array): PerceptualHash | undefined =>
  bytes.length === 24 ? { phash: bytes.slice(0, 8), dhash: bytes.slice(8, 24) } : undefined;

/** Set bits of each byte value. */
const bitCounts = Uint8Array.from({ length: 256 }, (_, byte) => {
  let count = 0;
  for (let n = byte; n; n >>= 1) count += n & 1;
  return count;
});
const popcount = (byte: number): number => bitCounts[byte & 0xff] ?? 0;

/** The number of differing bits of two hashes of one length. */
export const hamming = (a: Uint8Array, b: Uint8Array): number => {
  if (a.length !== b.length) throw new Error('Hashes of different lengths');
  let distance = 0;
  for (let i = 0; i < a.length; i++) distance += popcount((a[i] ?? 0) ^ (b[i] ?? 0));
  return distance;
};

/** Both distances, and whether they make the two images the same photo. */
export const compareHashes = (a: PerceptualHash, b: PerceptualHash): { phash: number; dhash: number; duplicate: boolean } => {
  const phash = hamming(a.phash, b.phash);
  const dhash = hamming(a.dhash, b.dhash);
  return { phash, dhash, duplicate: phash <= duplicateThresholds.phash && dhash <= duplicateThresholds.dhash };
};

/**
 * Whether two stored hashes (24 bytes each, `packHash`) are the same photo, without unpacking
 * them: what a detection runs over every hash of its owner (some 100,000 in ~10 ms).
 */
export const packedDuplicates = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== 24 || b.length !== 24) return false;
  let phash = 0;
  for (let i = 0; i < 8; i++) phash += bitCounts[(a[i] ?? 0) ^ (b[i] ?? 0)] ?? 0;
  if (phash > duplicateThresholds.phash) return false;
  let dhash = 0;
  for (let i = 8; i < 24; i++) dhash += bitCounts[(a[i] ?? 0) ^ (b[i] ?? 0)] ?? 0;
  return dhash <= duplicateThresholds.dhash;
};
