/**
 * Where a point of the stored image (W × H, continuous pixel coordinates) is shown under each EXIF
 * orientation: the definition of the tag, point by point (the tests' oracle for face regions).
 */
export const shownPoint = (orientation: number, x: number, y: number, W: number, H: number): [number, number] =>
  (
    ({
      1: [x, y],
      2: [W - x, y],
      3: [W - x, H - y],
      4: [x, H - y],
      5: [y, x],
      6: [H - y, x],
      7: [H - y, W - x],
      8: [y, W - x],
    }) as Record<number, [number, number]>
  )[orientation] as [number, number];
