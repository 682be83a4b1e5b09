/**
 * Plane geometry for the text detector's post-processing (docs/ocr.md, "Detection"): the convex
 * hull of a region's pixels, its smallest rotated rectangle (rotating calipers), the rectangle's
 * corners in PaddleOCR's order, and the rectangle pushed outwards ("unclip").
 */

export type Point = readonly [number, number];

/** A quadrilateral: top-left, top-right, bottom-right, bottom-left (as PaddleOCR orders a box). */
export type Quad = [Point, Point, Point, Point];

const cross = (o: Point, a: Point, b: Point): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** The convex hull of `points`, counter-clockwise (in y-down pixels: clockwise on screen), no collinear points. */
export const convexHull = (points: readonly Point[]): Point[] => {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length <= 2) return sorted;
  const chain = (points: readonly Point[]): Point[] => {
    const kept: Point[] = [];
    for (const p of points) {
      for (let a = kept.at(-2), b = kept.at(-1); a && b && cross(a, b, p) <= 0; a = kept.at(-2), b = kept.at(-1)) kept.pop();
      kept.push(p);
    }
    kept.pop();
    return kept;
  };
  return chain(sorted).concat(chain([...sorted].reverse()));
};

/** A rotated rectangle: its centre, unit axes `u` and `v`, and its extent along each. */
export interface RotatedRect {
  center: Point;
  u: Point;
  v: Point;
  /** Length along `u`. */
  width: number;
  /** Length along `v`. */
  height: number;
}

/**
 * The smallest-area rectangle around a convex polygon: one of its sides lies on a hull edge, so
 * every edge's direction is tried (the hulls here have a few dozen points at most).
 */
export const minAreaRect = (hull: readonly Point[]): RotatedRect => {
  let best: RotatedRect = { center: hull[0] ?? [0, 0], u: [1, 0], v: [0, 1], width: 0, height: 0 };
  let bestArea = Number.POSITIVE_INFINITY;
  for (const [i, a] of hull.entries()) {
    const b = hull[(i + 1) % hull.length] ?? a;
    const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const u: Point = length > 0 ? [(b[0] - a[0]) / length, (b[1] - a[1]) / length] : [1, 0];
    const v: Point = [-u[1], u[0]];
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (const p of hull) {
      const pu = p[0] * u[0] + p[1] * u[1];
      const pv = p[0] * v[0] + p[1] * v[1];
      if (pu < minU) minU = pu;
      if (pu > maxU) maxU = pu;
      if (pv < minV) minV = pv;
      if (pv > maxV) maxV = pv;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea - 1e-9) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { center: [cu * u[0] + cv * v[0], cu * u[1] + cv * v[1]], u, v, width: maxU - minU, height: maxV - minV };
    }
  }
  return best;
};

/**
 * A rectangle's corners in PaddleOCR's order (its `get_mini_boxes`): the two leftmost corners give
 * the top-left (the upper one) and bottom-left, the two rightmost the top-right and bottom-right.
 */
export const orderedCorners = (rect: RotatedRect): Quad => {
  const { center, u, v } = rect;
  const hu = rect.width / 2;
  const hv = rect.height / 2;
  const corner = (su: number, sv: number): Point => [
    center[0] + su * hu * u[0] + sv * hv * v[0],
    center[1] + su * hu * u[1] + sv * hv * v[1],
  ];
  const points = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)].sort((a, b) => a[0] - b[0]);
  const [p0, p1, p2, p3] = points as [Point, Point, Point, Point];
  const [topLeft, bottomLeft] = p1[1] > p0[1] ? [p0, p1] : [p1, p0];
  const [topRight, bottomRight] = p3[1] > p2[1] ? [p2, p3] : [p3, p2];
  return [topLeft, topRight, bottomRight, bottomLeft];
};

/**
 * The rectangle pushed outwards by DB's unclip distance, area × ratio / perimeter (PaddleOCR
 * offsets the polygon with round joins; the smallest rectangle around that is this one).
 */
export const unclip = (rect: RotatedRect, ratio: number): RotatedRect => {
  const perimeter = 2 * (rect.width + rect.height);
  const distance = perimeter > 0 ? (rect.width * rect.height * ratio) / perimeter : 0;
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
};

/** Whether `p` is inside (or on) the convex quadrilateral `quad`, corners in either winding. */
export const insideConvex = (quad: readonly Point[], x: number, y: number): boolean => {
  let sign = 0;
  for (const [i, a] of quad.entries()) {
    const b = quad[(i + 1) % quad.length] ?? a;
    const c = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    if (Math.abs(c) < 1e-9) continue;
    const s = c > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
};

/**
 * Boxes in reading order, as rapidocr sorts them: by the top-left corner's y then x, then a box
 * whose top-left is less than 10 px lower than the one before it and left of it moves before it
 * (one line of text).
 */
export const readingOrder = <T extends { box: Quad }>(items: readonly T[]): T[] => {
  const sorted = [...items].sort((a, b) => a.box[0][1] - b.box[0][1] || a.box[0][0] - b.box[0][0]);
  for (let i = 0; i < sorted.length - 1; i++) {
    for (let j = i; j >= 0; j--) {
      const next = sorted[j + 1];
      const current = sorted[j];
      if (next && current && Math.abs(next.box[0][1] - current.box[0][1]) < 10 && next.box[0][0] < current.box[0][0]) {
        sorted[j] = next;
        sorted[j + 1] = current;
      } else break;
    }
  }
  return sorted;
};
