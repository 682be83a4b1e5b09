/**
 * Pillow's BICUBIC resize of 8-bit RGB pixels, reproduced to the last bit: Immich's CLIP
 * preprocessing resizes with Pillow (docs/clip-local.md, "Preprocessing"), and libvips' kernels
 * give other pixels (up to 140 of 255 apart), so embeddings of the same photo would differ from
 * an Immich ML service's.
 *
 * The algorithm, as Pillow defines it: separable convolution, horizontal pass first, then
 * vertical. Each output pixel's centre maps back to `(i + 0.5) * scale` in the source; when
 * shrinking, the cubic kernel (Keys, a = -0.5, support 2) is stretched by the factor (so the
 * filter also antialiases), the taps are the source pixels whose centres fall within the
 * stretched support (bounds rounded half up, clipped to the image), and the weights are
 * normalised to sum 1, then turned into signed fixed point with 22 fractional bits (rounded away
 * from zero). A pass sums pixel × weight in integers from half a unit, shifts back and clips to
 * 0–255, so the intermediate image is 8-bit too. A pass whose size does not change is skipped.
 */

const precisionBits = 22;
const one = 2 ** precisionBits;
const half = 2 ** (precisionBits - 1);
const maxBeforeShift = 256 * one;

/** Keys' cubic convolution kernel with a = -0.5, support 2. */
const cubic = (t: number): number => {
  const x = Math.abs(t);
  const a = -0.5;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
};

interface Taps {
  /** First source index per output index. */
  first: Int32Array;
  /** Number of taps per output index. */
  count: Int32Array;
  /** Fixed-point weights, `width` per output index. */
  weights: Int32Array;
  width: number;
}

/** The taps and weights mapping `inSize` source pixels onto `outSize` (the whole range). */
const taps = (inSize: number, outSize: number): Taps => {
  const scale = inSize / outSize;
  const stretch = Math.max(scale, 1);
  const support = 2 * stretch;
  const width = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Int32Array(outSize * width);
  const raw = new Float64Array(width);
  for (let i = 0; i < outSize; i++) {
    const centre = (i + 0.5) * scale;
    // C's (int) conversion truncates toward zero; a negative bound is clipped to 0 anyway.
    const lo = Math.max(Math.trunc(centre - support + 0.5), 0);
    const hi = Math.min(Math.trunc(centre + support + 0.5), inSize);
    const n = hi - lo;
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const w = cubic((k + lo - centre + 0.5) / stretch);
      raw[k] = w;
      sum += w;
    }
    for (let k = 0; k < n; k++) {
      const w = sum === 0 ? (raw[k] as number) : (raw[k] as number) / sum;
      const fixed = w * one;
      weights[i * width + k] = Math.trunc(fixed < 0 ? fixed - 0.5 : fixed + 0.5);
    }
    first[i] = lo;
    count[i] = n;
  }
  return { first, count, weights, width };
};

/** Back from fixed point to a byte, clipped. */
const toByte = (sum: number): number => (sum <= 0 ? 0 : sum >= maxBeforeShift ? 255 : Math.floor(sum / one));

export interface RgbImage {
  width: number;
  height: number;
  /** Interleaved RGB, 3 bytes a pixel, rows top to bottom. */
  data: Uint8Array;
}

const horizontal = (image: RgbImage, width: number): RgbImage => {
  const { first, count, weights, width: stride } = taps(image.width, width);
  const out = new Uint8Array(width * image.height * 3);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width * 3;
    for (let x = 0; x < width; x++) {
      let r = half;
      let g = half;
      let b = half;
      const base = row + (first[x] as number) * 3;
      const taken = count[x] as number;
      for (let k = 0; k < taken; k++) {
        const w = weights[x * stride + k] as number;
        const p = base + k * 3;
        r += (image.data[p] as number) * w;
        g += (image.data[p + 1] as number) * w;
        b += (image.data[p + 2] as number) * w;
      }
      const o = (y * width + x) * 3;
      out[o] = toByte(r);
      out[o + 1] = toByte(g);
      out[o + 2] = toByte(b);
    }
  }
  return { width, height: image.height, data: out };
};

const vertical = (image: RgbImage, height: number): RgbImage => {
  const { first, count, weights, width: stride } = taps(image.height, height);
  const rowBytes = image.width * 3;
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let c = 0; c < rowBytes; c++) {
      let sum = half;
      let p = (first[y] as number) * rowBytes + c;
      const taken = count[y] as number;
      for (let k = 0; k < taken; k++, p += rowBytes) sum += (image.data[p] as number) * (weights[y * stride + k] as number);
      out[y * rowBytes + c] = toByte(sum);
    }
  }
  return { width: image.width, height, data: out };
};

/** Pillow's `image.resize((width, height), Image.Resampling.BICUBIC)` of an RGB image. */
export const resizeBicubic = (image: RgbImage, width: number, height: number): RgbImage => {
  if (image.data.length !== image.width * image.height * 3) throw new Error('resizeBicubic: RGB data of the wrong length');
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`resizeBicubic: bad size ${width}×${height}`);
  }
  const across = width === image.width ? image : horizontal(image, width);
  return height === image.height ? across : vertical(across, height);
};
