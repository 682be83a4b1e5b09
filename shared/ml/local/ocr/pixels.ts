/**
 * Pixel work for the text recogniser on plain typed arrays (docs/ocr.md, "Recognition"): a text
 * box cut out of the image and made straight by a perspective transform (as Immich's
 * `get_crop_img_list`, with bilinear instead of Pillow's bicubic sampling), a quarter turn for
 * upright boxes, and OpenCV-style bilinear resizing.
 */
import type { Point, Quad } from './geometry.ts';

/** An 8-bit RGB image, row by row. */
export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Solves `a · x = b` (n×n, `a` row by row with `b` as its last column: n × (n + 1) numbers) by
 * Gauss–Jordan elimination with partial pivoting; a singular system gives the identity's coefficients.
 */
const solve = (m: Float64Array, n: number): number[] => {
  const w = n + 1;
  const at = (row: number, col: number) => m[row * w + col] ?? 0;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(at(row, col)) > Math.abs(at(pivot, col))) pivot = row;
    for (let k = 0; k < w; k++) {
      const t = at(col, k);
      m[col * w + k] = at(pivot, k);
      m[pivot * w + k] = t;
    }
    const p = at(col, col);
    if (Math.abs(p) < 1e-12) return [1, 0, 0, 0, 1, 0, 0, 0];
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const f = at(row, col) / p;
      if (f === 0) continue;
      for (let k = col; k < w; k++) m[row * w + k] = at(row, k) - f * at(col, k);
    }
  }
  return Array.from({ length: n }, (_, i) => at(i, n) / at(i, i));
};

/**
 * The perspective coefficients (Pillow's PERSPECTIVE data a..h) taking a point of the
 * `width`×`height` output to the image: x = (a·X + b·Y + c) / (g·X + h·Y + 1), y likewise with d, e, f.
 */
const perspective = (quad: Quad, width: number, height: number): number[] => {
  const from: Quad = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ];
  const rows = from.flatMap(([x, y], i) => {
    const [u, v] = quad[i] ?? [0, 0];
    return [
      [x, y, 1, 0, 0, 0, -u * x, -u * y, u],
      [0, 0, 0, x, y, 1, -v * x, -v * y, v],
    ];
  });
  return solve(Float64Array.from(rows.flat()), 8);
};

/** Bilinear sample of `image` at continuous pixel coordinates (pixel centres at .5), edges clamped. */
const sample = (image: Rgb, x: number, y: number, out: Uint8Array, at: number): void => {
  const fx = Math.min(Math.max(x - 0.5, 0), image.width - 1);
  const fy = Math.min(Math.max(y - 0.5, 0), image.height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, image.width - 1);
  const y1 = Math.min(y0 + 1, image.height - 1);
  const wx = fx - x0;
  const wy = fy - y0;
  const { data, width } = image;
  for (let c = 0; c < 3; c++) {
    const top = (data[(y0 * width + x0) * 3 + c] ?? 0) * (1 - wx) + (data[(y0 * width + x1) * 3 + c] ?? 0) * wx;
    const bottom = (data[(y1 * width + x0) * 3 + c] ?? 0) * (1 - wx) + (data[(y1 * width + x1) * 3 + c] ?? 0) * wx;
    out[at + c] = Math.round(top * (1 - wy) + bottom * wy);
  }
};

/**
 * The box cut out straight: as wide as its longer top/bottom side and as high as its longer
 * left/right side (whole pixels, truncated), turned a quarter counter-clockwise when it is at
 * least 1.5 times higher than wide (vertical text), as Immich does.
 */
export const cropQuad = (image: Rgb, quad: Quad): Rgb => {
  const length = (p: Point, q: Point) => Math.hypot(p[0] - q[0], p[1] - q[1]);
  const width = Math.max(1, Math.trunc(Math.max(length(quad[0], quad[1]), length(quad[3], quad[2]))));
  const height = Math.max(1, Math.trunc(Math.max(length(quad[0], quad[3]), length(quad[1], quad[2]))));
  const [a, b, c, d, e, f, g, h] = perspective(quad, width, height) as [number, number, number, number, number, number, number, number];
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const Y = y + 0.5;
    for (let x = 0; x < width; x++) {
      const X = x + 0.5;
      const w = g * X + h * Y + 1;
      sample(image, (a * X + b * Y + c) / w, (d * X + e * Y + f) / w, data, (y * width + x) * 3);
    }
  }
  const crop = { width, height, data };
  return height / width >= 1.5 ? rotateCounterClockwise(crop) : crop;
};

/** The image turned a quarter counter-clockwise (Pillow's `rotate(90, expand=True)`). */
export const rotateCounterClockwise = (image: Rgb): Rgb => {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  // New (x, y) shows old (width - 1 - y, x); the new image is `height` wide and `width` high.
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < height; x++) {
      const from = (x * width + (width - 1 - y)) * 3;
      const to = (y * height + x) * 3;
      out[to] = data[from] ?? 0;
      out[to + 1] = data[from + 1] ?? 0;
      out[to + 2] = data[from + 2] ?? 0;
    }
  }
  return { width: height, height: width, data: out };
};

/**
 * Bilinear resize as OpenCV's INTER_LINEAR (half-pixel centres, no smoothing when shrinking),
 * written into `target` as normalised BGR planes: (value / 255 − 0.5) / 0.5, PP-OCR's recogniser
 * input; `stride` is the planes' width (the batch's), `planeSize` the size of one plane.
 */
export const resizeNormalisedBgr = (
  image: Rgb,
  width: number,
  height: number,
  target: Float32Array,
  offset: number,
  stride: number,
): void => {
  const planeSize = stride * height;
  const sx = image.width / width;
  const sy = image.height / height;
  const { data } = image;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, image.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const wx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const top = (data[(y0 * image.width + x0) * 3 + c] ?? 0) * (1 - wx) + (data[(y0 * image.width + x1) * 3 + c] ?? 0) * wx;
        const bottom = (data[(y1 * image.width + x0) * 3 + c] ?? 0) * (1 - wx) + (data[(y1 * image.width + x1) * 3 + c] ?? 0) * wx;
        // OpenCV rounds to 8 bits before the normalisation.
        const value = Math.round(top * (1 - wy) + bottom * wy);
        // BGR planes: blue (channel 2) first.
        target[offset + (2 - c) * planeSize + y * stride + x] = (value / 255 - 0.5) / 0.5;
      }
    }
  }
};
