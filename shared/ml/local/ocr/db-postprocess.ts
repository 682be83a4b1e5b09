/**
 * DB (differentiable binarisation) post-processing of the text detector's probability map, as
 * PaddleOCR's DBPostProcess that Immich's ML service runs through rapidocr (docs/ocr.md,
 * "Detection"): the map thresholded at 0.3, dilated by a 2×2 kernel, each 8-connected region's
 * smallest rotated rectangle, scored by the mean probability inside it ("fast" mode), kept when
 * the score reaches the minimum, pushed outwards (unclip ratio 1.6) and scaled to the image.
 */
import { convexHull, insideConvex, minAreaRect, orderedCorners, type Point, type Quad, unclip } from './geometry.ts';

export interface DbOptions {
  /** Pixels whose probability is above this are text (0.3). */
  threshold: number;
  /** A region is kept when its mean probability is at least this (Immich's `minDetectionScore`). */
  boxThreshold: number;
  unclipRatio: number;
  maxCandidates: number;
}

export const defaultDbOptions: Omit<DbOptions, 'boxThreshold'> = { threshold: 0.3, unclipRatio: 1.6, maxCandidates: 1000 };

export interface DetectedBox {
  /** Corners in the destination image's pixels, whole numbers (PaddleOCR rounds them). */
  box: Quad;
  score: number;
}

/** PaddleOCR's smallest side for a region (3 px in the map; 5 px once unclipped). */
const minSize = 3;

/** The 2×2 dilation OpenCV makes with its default anchor: a pixel is set when it or its left, upper or upper-left neighbour is. */
const dilate = (mask: Uint8Array, width: number, height: number): Uint8Array => {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] =
        (mask[i] ?? 0) |
        (x > 0 ? (mask[i - 1] ?? 0) : 0) |
        (y > 0 ? (mask[i - width] ?? 0) : 0) |
        (x > 0 && y > 0 ? (mask[i - width - 1] ?? 0) : 0);
    }
  }
  return out;
};

/**
 * The hull points of each 8-connected region of `mask`, in scan order: each row's leftmost and
 * rightmost pixel of the region (their hull is the region's hull).
 */
const regions = (mask: Uint8Array, width: number, height: number, limit: number): Point[][] => {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  const rowMin = new Int32Array(height).fill(-1);
  const rowMax = new Int32Array(height).fill(-1);
  const found: Point[][] = [];
  for (let start = 0; start < mask.length && found.length < limit; start++) {
    if (!mask[start] || seen[start]) continue;
    const rows: number[] = [];
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const i = stack[--top] ?? 0;
      const x = i % width;
      const y = (i - x) / width;
      if (rowMin[y] === -1) {
        rows.push(y);
        rowMin[y] = x;
        rowMax[y] = x;
      } else {
        if (x < (rowMin[y] ?? 0)) rowMin[y] = x;
        if (x > (rowMax[y] ?? 0)) rowMax[y] = x;
      }
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (mask[j] && !seen[j]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    const points: Point[] = [];
    for (const y of rows) {
      points.push([rowMin[y] ?? 0, y]);
      if (rowMax[y] !== rowMin[y]) points.push([rowMax[y] ?? 0, y]);
      rowMin[y] = -1;
      rowMax[y] = -1;
    }
    found.push(points);
  }
  return found;
};

/**
 * The mean probability inside a box (PaddleOCR's `box_score_fast`): over the pixels of the box's
 * bounding rectangle (corners truncated to whole pixels, as OpenCV's fillPoly gets them) that lie
 * in the box.
 */
const boxScore = (map: Float32Array, width: number, height: number, box: Quad): number => {
  const xs = box.map((p) => p[0]);
  const ys = box.map((p) => p[1]);
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  const xMin = clamp(Math.floor(Math.min(...xs)), width - 1);
  const xMax = clamp(Math.ceil(Math.max(...xs)), width - 1);
  const yMin = clamp(Math.floor(Math.min(...ys)), height - 1);
  const yMax = clamp(Math.ceil(Math.max(...ys)), height - 1);
  const polygon = box.map((p): Point => [Math.trunc(p[0]), Math.trunc(p[1])]);
  let sum = 0;
  let count = 0;
  for (let y = yMin; y <= yMax; y++) {
    for (let x = xMin; x <= xMax; x++) {
      if (!insideConvex(polygon, x, y)) continue;
      sum += map[y * width + x] ?? 0;
      count++;
    }
  }
  return count > 0 ? sum / count : 0;
};

/**
 * Text boxes in a `width`×`height` probability map, their corners scaled to a
 * `destWidth`×`destHeight` image, with their scores; in the regions' scan order.
 */
export const boxesFromMap = (
  map: Float32Array,
  width: number,
  height: number,
  destWidth: number,
  destHeight: number,
  options: DbOptions,
): DetectedBox[] => {
  const mask = new Uint8Array(map.length);
  for (let i = 0; i < map.length; i++) mask[i] = (map[i] ?? 0) > options.threshold ? 1 : 0;
  const dilated = dilate(mask, width, height);
  const boxes: DetectedBox[] = [];
  for (const points of regions(dilated, width, height, options.maxCandidates)) {
    const rect = minAreaRect(convexHull(points));
    if (Math.min(rect.width, rect.height) < minSize) continue;
    const score = boxScore(map, width, height, orderedCorners(rect));
    if (score < options.boxThreshold) continue;
    const grown = unclip(rect, options.unclipRatio);
    if (Math.min(grown.width, grown.height) < minSize + 2) continue;
    const scale = (p: Point): Point => [
      Math.min(Math.max(Math.round((p[0] / width) * destWidth), 0), destWidth),
      Math.min(Math.max(Math.round((p[1] / height) * destHeight), 0), destHeight),
    ];
    const [a, b, c, d] = orderedCorners(grown);
    boxes.push({ box: [scale(a), scale(b), scale(c), scale(d)], score });
  }
  return boxes;
};
