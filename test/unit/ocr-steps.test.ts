import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boxesFromMap, defaultDbOptions } from '#shared/ml/local/ocr/db-postprocess.ts';
import { convexHull, minAreaRect, orderedCorners, type Point, type Quad, readingOrder, unclip } from '#shared/ml/local/ocr/geometry.ts';
import { cropQuad, type Rgb } from '#shared/ml/local/ocr/pixels.ts';
import { ctcDecode, readCharacters, recBatch } from '#shared/ml/local/ocr/recognition.ts';
import { ocrModelsDir } from '#shared/ml/local/ocr.ts';

/** The OCR's steps one by one on numbers worked out by hand (docs/ocr.md). */

/** The pixels of a w×h rectangle centred at (cx, cy), turned `angle` radians. */
const rectanglePoints = (cx: number, cy: number, w: number, h: number, angle: number): Point[] => {
  const points: Point[] = [];
  for (let i = 0; i <= w; i++)
    for (let j = 0; j <= h; j++) {
      const x = i - w / 2;
      const y = j - h / 2;
      points.push([cx + x * Math.cos(angle) - y * Math.sin(angle), cy + x * Math.sin(angle) + y * Math.cos(angle)]);
    }
  return points;
};

describe('geometry (docs/ocr.md, "Detection")', () => {
  it('finds the convex hull without the inner and collinear points', () => {
    const hull = convexHull([
      [0, 0],
      [5, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [5, 5],
      [3, 7],
    ]);
    expect(hull).toHaveLength(4);
    expect(new Set(hull.map((p) => p.join(',')))).toEqual(new Set(['0,0', '10,0', '10,10', '0,10']));
  });

  it('finds the smallest rotated rectangle around a turned one', () => {
    const rect = minAreaRect(convexHull(rectanglePoints(100, 50, 60, 12, Math.PI / 9)));
    const [long, short] = [Math.max(rect.width, rect.height), Math.min(rect.width, rect.height)];
    expect(long).toBeCloseTo(60, 6);
    expect(short).toBeCloseTo(12, 6);
    expect(rect.center[0]).toBeCloseTo(100, 6);
    expect(rect.center[1]).toBeCloseTo(50, 6);
  });

  it('orders corners top-left, top-right, bottom-right, bottom-left', () => {
    const rect = minAreaRect(convexHull(rectanglePoints(100, 50, 60, 12, 0.1)));
    const [tl, tr, br, bl] = orderedCorners(rect);
    expect(tl[0]).toBeLessThan(tr[0]);
    expect(bl[0]).toBeLessThan(br[0]);
    expect(tl[1]).toBeLessThan(bl[1]);
    expect(tr[1]).toBeLessThan(br[1]);
    // Turned clockwise by 0.1 rad: the right end is lower.
    expect(tr[1]).toBeGreaterThan(tl[1]);
  });

  it('unclips by area × ratio / perimeter on every side', () => {
    const grown = unclip({ center: [0, 0], u: [1, 0], v: [0, 1], width: 100, height: 20 }, 1.6);
    const distance = (100 * 20 * 1.6) / 240;
    expect(grown.width).toBeCloseTo(100 + 2 * distance, 9);
    expect(grown.height).toBeCloseTo(20 + 2 * distance, 9);
  });

  it('sorts boxes into lines: top to bottom, and left to right when less than 10 px apart vertically', () => {
    const at = (x: number, y: number, id: string) => ({
      id,
      box: [
        [x, y],
        [x + 10, y],
        [x + 10, y + 5],
        [x, y + 5],
      ] as Quad,
    });
    const order = readingOrder([at(200, 104, 'c'), at(0, 100, 'a'), at(100, 98, 'b'), at(0, 140, 'd')]).map((item) => item.id);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('DB post-processing (docs/ocr.md, "Detection")', () => {
  const map = (width: number, height: number, fill: [number, number, number, number, number][]): Float32Array => {
    const out = new Float32Array(width * height);
    for (const [x1, y1, x2, y2, p] of fill) for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) out[y * width + x] = p;
    return out;
  };

  it('turns a text region into its unclipped box, scaled to the image, scored by its mean probability', () => {
    // Pixels 20..79 × 10..19 at 0.9 in a 100×40 map; the image is twice as large.
    const boxes = boxesFromMap(map(100, 40, [[20, 10, 79, 19, 0.9]]), 100, 40, 200, 80, { ...defaultDbOptions, boxThreshold: 0.5 });
    expect(boxes).toHaveLength(1);
    const [box] = boxes;
    // The dilated region spans 20..80 × 10..20 (pixel centres): 60 × 10; unclip distance 60·10·1.6/140.
    const d = (60 * 10 * 1.6) / 140;
    const expected = [
      [20 - d, 10 - d],
      [80 + d, 10 - d],
      [80 + d, 20 + d],
      [20 - d, 20 + d],
    ].map(([x, y]) => [Math.round(x! * 2), Math.round(y! * 2)]);
    expect(box!.box).toEqual(expected);
    // The mean over the box's 61 × 11 pixels, the dilated edge's 71 at probability 0.
    expect(box!.score).toBeCloseTo((0.9 * 600) / 671, 5);
  });

  it('drops regions scored under the box threshold, and those thinner than 3 px', () => {
    const faint = map(100, 40, [[20, 10, 79, 19, 0.4]]);
    expect(boxesFromMap(faint, 100, 40, 100, 40, { ...defaultDbOptions, boxThreshold: 0.5 })).toEqual([]);
    expect(boxesFromMap(faint, 100, 40, 100, 40, { ...defaultDbOptions, boxThreshold: 0.3 })).toHaveLength(1);
    const thin = map(100, 40, [[20, 10, 79, 10, 0.9]]);
    expect(boxesFromMap(thin, 100, 40, 100, 40, { ...defaultDbOptions, boxThreshold: 0.5 })).toEqual([]);
  });

  it('keeps corners inside the image', () => {
    const [box] = boxesFromMap(map(50, 20, [[0, 0, 30, 8, 0.95]]), 50, 20, 50, 20, { ...defaultDbOptions, boxThreshold: 0.5 });
    for (const [x, y] of box!.box) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(50);
      expect(y).toBeLessThanOrEqual(20);
    }
  });
});

describe('recognition (docs/ocr.md, "Recognition")', () => {
  it('reads the dictionary as the model’s 6625 classes: blank, 6623 characters, space', () => {
    const characters = readCharacters(join(ocrModelsDir()!, 'ppocr_keys_v1.txt'));
    expect(characters).toHaveLength(6625);
    expect(characters[0]).toBe('');
    expect(characters.at(-1)).toBe(' ');
    expect(characters).toContain('A');
    expect(characters).toContain('z');
    expect(characters).toContain('7');
  });

  it('decodes CTC greedily: repeats merged, blanks dropped, the score the mean of the kept characters', () => {
    const characters = ['', 'a', 'b', ' '];
    // Steps: a(0.9) a(0.8) blank a(0.7) b(0.6) b(0.5) space(0.4)
    const steps: [number, number][] = [
      [1, 0.9],
      [1, 0.8],
      [0, 0.9],
      [1, 0.7],
      [2, 0.6],
      [2, 0.5],
      [3, 0.4],
    ];
    const probabilities = new Float32Array(steps.length * 4);
    steps.forEach(([best, p], t) => {
      for (let c = 0; c < 4; c++) probabilities[t * 4 + c] = c === best ? p : (1 - p) / 3;
    });
    const [decoded] = ctcDecode(probabilities, 1, steps.length, characters);
    expect(decoded!.text).toBe('aab ');
    expect(decoded!.score).toBeCloseTo((0.9 + 0.7 + 0.6 + 0.4) / 4, 6);
    expect(ctcDecode(new Float32Array([1, 0, 0, 0]), 1, 1, characters)).toEqual([{ text: '', score: 0 }]);
  });

  it('batches crops at height 48, as wide as the widest (at least 320), padded with zeros', () => {
    const crop = (width: number, height: number): Rgb => ({ width, height, data: new Uint8Array(width * height * 3).fill(255) });
    const batch = recBatch([crop(100, 24), crop(800, 48)]);
    expect(batch.width).toBe(800);
    expect(batch.count).toBe(2);
    const plane = 48 * 800;
    // The first crop is 200 wide at height 48: white (1) there, padding (0) after.
    expect(batch.data[199]).toBeCloseTo(1, 6);
    expect(batch.data[200]).toBe(0);
    expect(batch.data[3 * plane + 799]).toBeCloseTo(1, 6);
    expect(recBatch([crop(10, 48)]).width).toBe(320);
  });

  it('cuts a box out straight, and turns an upright one a quarter counter-clockwise', () => {
    // Each pixel's red is its x, green its y.
    const image: Rgb = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) };
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) image.data.set([x, y, 0], (y * 64 + x) * 3);
    const flat = cropQuad(image, [
      [10, 20],
      [40, 20],
      [40, 30],
      [10, 30],
    ]);
    expect([flat.width, flat.height]).toEqual([30, 10]);
    expect([...flat.data.subarray(0, 3)]).toEqual([10, 20, 0]);
    const last = (flat.height * flat.width - 1) * 3;
    expect([...flat.data.subarray(last, last + 3)]).toEqual([39, 29, 0]);
    const upright = cropQuad(image, [
      [10, 10],
      [20, 10],
      [20, 40],
      [10, 40],
    ]);
    expect([upright.width, upright.height]).toEqual([30, 10]);
    // Turned counter-clockwise: the top-left now shows the crop's top-right (x 19, y 10), the top-right its bottom-right.
    expect([...upright.data.subarray(0, 3)]).toEqual([19, 10, 0]);
    const topRight = (upright.width - 1) * 3;
    expect([...upright.data.subarray(topRight, topRight + 3)]).toEqual([19, 39, 0]);
  });
});
