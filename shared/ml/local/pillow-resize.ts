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

/**
 * The taps and weights mapping `inSize` source pixels onto `outSize`, for the `n` output
 * indices from `from` (each output pixel's taps depend on its index alone).
 */
const taps = (inSize: number, outSize: number, from: number, n: number): Taps => {
  const scale = inSize / outSize;
  const stretch = Math.max(scale, 1);
  const support = 2 * stretch;
  const width = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(n);
  const count = new Int32Array(n);
  const weights = new Int32Array(n * width);
  const raw = new Float64Array(width);
  for (let j = 0; j < n; j++) {
    const centre = (from + j + 0.5) * scale;
    // C's (int) conversion truncates toward zero; a negative bound is clipped to 0 anyway.
    const lo = Math.max(Math.trunc(centre - support + 0.5), 0);
    const hi = Math.min(Math.trunc(centre + support + 0.5), inSize);
    const taken = hi - lo;
    let sum = 0;
    for (let k = 0; k < taken; k++) {
      const w = cubic((k + lo - centre + 0.5) / stretch);
      raw[k] = w;
      sum += w;
    }
    for (let k = 0; k < taken; k++) {
      const w = sum === 0 ? (raw[k] as number) : (raw[k] as number) / sum;
      const fixed = w * one;
      weights[j * width + k] = Math.trunc(fixed < 0 ? fixed - 0.5 : fixed + 0.5);
    }
    first[j] = lo;
    count[j] = taken;
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

/** A part of the resized image: `width`×`height` pixels from (`left`, `top`). */
export interface Window {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Rows `rows[0]` to `rows[1]` (excluded) of the image, resized across to `width`, output columns of `window` only. */
const horizontal = (image: RgbImage, width: number, window: Window, rows: [number, number]): RgbImage => {
  const { first, count, weights, width: stride } = taps(image.width, width, window.left, window.width);
  const height = rows[1] - rows[0];
  const out = new Uint8Array(window.width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = (rows[0] + y) * image.width * 3;
    for (let x = 0; x < window.width; x++) {
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
      const o = (y * window.width + x) * 3;
      out[o] = toByte(r);
      out[o + 1] = toByte(g);
      out[o + 2] = toByte(b);
    }
  }
  return { width: window.width, height, data: out };
};

/** Rows `rows[0]`… of the source columns (no resize across), the window's columns only. */
const columns = (image: RgbImage, window: Window, rows: [number, number]): RgbImage => {
  const height = rows[1] - rows[0];
  const out = new Uint8Array(window.width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = ((rows[0] + y) * image.width + window.left) * 3;
    out.set(image.data.subarray(from, from + window.width * 3), y * window.width * 3);
  }
  return { width: window.width, height, data: out };
};

/** Pillow's `image.resize((width, height), Image.Resampling.BICUBIC)` of an RGB image, or a window of it. */
export const resizeBicubic = (
  image: RgbImage,
  width: number,
  height: number,
  window: Window = { left: 0, top: 0, width, height },
): RgbImage => {
  if (image.data.length !== image.width * image.height * 3) throw new Error('resizeBicubic: RGB data of the wrong length');
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`resizeBicubic: bad size ${width}×${height}`);
  }
  const { left, top } = window;
  if (left < 0 || top < 0 || window.width < 1 || window.height < 1 || left + window.width > width || top + window.height > height) {
    throw new Error('resizeBicubic: window outside the image');
  }
  // Vertical taps first: they tell which source rows the horizontal pass must make.
  const down = height === image.height ? undefined : taps(image.height, height, top, window.height);
  const last = window.height - 1;
  const rows: [number, number] = down
    ? [down.first[0] as number, (down.first[last] as number) + (down.count[last] as number)]
    : [top, top + window.height];
  const across = width === image.width ? columns(image, window, rows) : horizontal(image, width, window, rows);
  if (!down) return across;
  const { first, count, weights, width: stride } = down;
  const rowBytes = across.width * 3;
  const out = new Uint8Array(rowBytes * window.height);
  for (let y = 0; y < window.height; y++) {
    const taken = count[y] as number;
    for (let c = 0; c < rowBytes; c++) {
      let sum = half;
      let p = ((first[y] as number) - rows[0]) * rowBytes + c;
      for (let k = 0; k < taken; k++, p += rowBytes) sum += (across.data[p] as number) * (weights[y * stride + k] as number);
      out[y * rowBytes + c] = toByte(sum);
    }
  }
  return { width: across.width, height: window.height, data: out };
};
