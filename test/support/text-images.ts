/**
 * Images with known text, made by the tests (never committed images): each string's outlines from
 * the DejaVu fonts (the `dejavu-fonts-ttf` package, read by opentype.js), optionally turned about
 * the image's centre, filled here by a small anti-aliased scanline rasteriser (8 sub-rows a pixel,
 * exact coverage across) over a white or a photo-like background, and saved as JPEG by libvips.
 * No system font is needed, so the images are the same on every machine.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { vips } from '../../shared/media/images.ts';

// opentype.js has no type declarations of its own: the little used here.
interface PathCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z';
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}
interface Font {
  getPath(text: string, x: number, y: number, fontSize: number): { commands: PathCommand[] };
}
const require = createRequire(import.meta.url);
const opentype = require('opentype.js') as { parse(buffer: ArrayBuffer): Font };
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const fonts = new Map<string, Font>();
const font = (name: 'sans' | 'mono' | 'bold'): Font => {
  const file = { sans: 'DejaVuSans.ttf', mono: 'DejaVuSansMono.ttf', bold: 'DejaVuSans-Bold.ttf' }[name];
  let loaded = fonts.get(file);
  if (!loaded) {
    const bytes = readFileSync(join(fontDir, file));
    loaded = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    fonts.set(file, loaded);
  }
  return loaded;
};

/** One string: its left end on the baseline at (`x`, `y`) pixels, `size` px em. */
export interface TextSpec {
  text: string;
  x: number;
  y: number;
  size: number;
}

export interface ImageSpec {
  width: number;
  height: number;
  background: 'white' | 'photo';
  color: [number, number, number];
  texts: TextSpec[];
  font?: 'sans' | 'mono' | 'bold';
  /** Degrees, clockwise on screen, about the image's centre. */
  angle?: number;
  /** The seed of the photo-like background's noise. */
  seed?: number;
}

/** A string as drawn: the bounds of its filled outlines, as fractions of the image's width and height. */
export interface DrawnText {
  text: string;
  box: { x1: number; y1: number; x2: number; y2: number };
}

export interface TextImage {
  jpeg: Buffer;
  width: number;
  height: number;
  texts: DrawnText[];
}

type Edge = [number, number, number, number];

/** A string's outline as straight edges (curves in 8 pieces), turned by `angle` about (`cx`, `cy`). */
const outline = (path: { commands: PathCommand[] }, angle: number, cx: number, cy: number): Edge[] => {
  const cos = Math.cos((angle * Math.PI) / 180);
  const sin = Math.sin((angle * Math.PI) / 180);
  const turn = (x: number, y: number): [number, number] => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
  const edges: Edge[] = [];
  let start: [number, number] = [0, 0];
  let at: [number, number] = [0, 0];
  const lineTo = (x: number, y: number) => {
    const to = turn(x, y);
    const from = turn(at[0], at[1]);
    edges.push([from[0], from[1], to[0], to[1]]);
    at = [x, y];
  };
  const pieces = 8;
  for (const c of path.commands) {
    if (c.type === 'M') {
      start = [c.x!, c.y!];
      at = start;
    } else if (c.type === 'L') lineTo(c.x!, c.y!);
    else if (c.type === 'Q') {
      const [x0, y0] = at;
      for (let i = 1; i <= pieces; i++) {
        const t = i / pieces;
        const u = 1 - t;
        lineTo(u * u * x0 + 2 * u * t * c.x1! + t * t * c.x!, u * u * y0 + 2 * u * t * c.y1! + t * t * c.y!);
      }
    } else if (c.type === 'C') {
      const [x0, y0] = at;
      for (let i = 1; i <= pieces; i++) {
        const t = i / pieces;
        const u = 1 - t;
        lineTo(
          u * u * u * x0 + 3 * u * u * t * c.x1! + 3 * u * t * t * c.x2! + t * t * t * c.x!,
          u * u * u * y0 + 3 * u * u * t * c.y1! + 3 * u * t * t * c.y2! + t * t * t * c.y!,
        );
      }
    } else if (c.type === 'Z') {
      if (at[0] !== start[0] || at[1] !== start[1]) lineTo(start[0], start[1]);
    }
  }
  return edges;
};

/** Adds the nonzero-winding coverage of `edges` (0–1 a pixel) into `coverage`. */
const fill = (edges: Edge[], coverage: Float32Array, width: number, height: number): void => {
  const subRows = 8;
  const ys = edges.flatMap((e) => [e[1], e[3]]);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  for (let row = top; row <= bottom; row++) {
    for (let s = 0; s < subRows; s++) {
      const y = row + (s + 0.5) / subRows;
      const crossings: [number, number][] = [];
      for (const [x0, y0, x1, y1] of edges) {
        if (y0 === y1 || y < Math.min(y0, y1) || y >= Math.max(y0, y1)) continue;
        crossings.push([x0 + ((y - y0) / (y1 - y0)) * (x1 - x0), y1 > y0 ? 1 : -1]);
      }
      crossings.sort((a, b) => a[0] - b[0]);
      let winding = 0;
      for (let i = 0; i < crossings.length - 1; i++) {
        winding += crossings[i]![1];
        if (winding === 0) continue;
        const from = Math.max(0, crossings[i]![0]);
        const to = Math.min(width, crossings[i + 1]![0]);
        for (let x = Math.floor(from); x < to; x++) {
          const covered = Math.min(to, x + 1) - Math.max(from, x);
          if (covered > 0) coverage[row * width + x]! += covered / subRows;
        }
      }
    }
  }
};

/** A small seeded random generator (mulberry32), so a background is the same every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** A photo-like background: dark colour gradients, a few soft blobs, grain. */
const photoBackground = (width: number, height: number, seed: number): Float32Array => {
  const next = random(seed);
  const blobs = Array.from({ length: 6 }, () => ({
    x: next() * width,
    y: next() * height,
    r: (0.1 + next() * 0.3) * Math.max(width, height),
    c: [next() * 60, next() * 60, next() * 60],
  }));
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const base = [30 + (50 * x) / width, 50 + (40 * y) / height, 70 - (30 * x) / width];
      for (const blob of blobs) {
        const w = Math.exp(-((x - blob.x) ** 2 + (y - blob.y) ** 2) / (2 * blob.r * blob.r));
        for (let c = 0; c < 3; c++) base[c]! += blob.c[c]! * w;
      }
      for (let c = 0; c < 3; c++) data[i + c] = base[c]! + (next() - 0.5) * 40;
    }
  }
  return data;
};

/** An image with the strings of `spec` drawn on it, and where each one is. */
export const makeTextImage = async (spec: ImageSpec): Promise<TextImage> => {
  const { width, height } = spec;
  const pixels =
    spec.background === 'white' ? new Float32Array(width * height * 3).fill(255) : photoBackground(width, height, spec.seed ?? 1);
  const texts: DrawnText[] = [];
  for (const text of spec.texts) {
    const edges = outline(font(spec.font ?? 'sans').getPath(text.text, text.x, text.y, text.size), spec.angle ?? 0, width / 2, height / 2);
    const coverage = new Float32Array(width * height);
    fill(edges, coverage, width, height);
    for (let i = 0; i < coverage.length; i++) {
      const a = Math.min(1, coverage[i]!);
      if (a === 0) continue;
      for (let c = 0; c < 3; c++) pixels[i * 3 + c] = pixels[i * 3 + c]! * (1 - a) + spec.color[c]! * a;
    }
    const xs = edges.flatMap((e) => [e[0], e[2]]);
    const ys = edges.flatMap((e) => [e[1], e[3]]);
    texts.push({
      text: text.text,
      box: { x1: Math.min(...xs) / width, y1: Math.min(...ys) / height, x2: Math.max(...xs) / width, y2: Math.max(...ys) / height },
    });
  }
  const bytes = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) bytes[i] = Math.min(255, Math.max(0, Math.round(pixels[i]!)));
  const { Image, BandFormat } = await vips();
  const image = Image.newFromMemory(bytes, width, height, 3, BandFormat.uchar);
  try {
    return { jpeg: Buffer.from(image.jpegsaveBuffer({ Q: 90 })), width, height, texts };
  } finally {
    image.delete();
  }
};

const black: [number, number, number] = [0, 0, 0];
const white: [number, number, number] = [255, 255, 255];

/** The generated set: name → how to make it (each image's strings are what the OCR should read). */
export const textImageSet = {
  blackOnWhite: () =>
    makeTextImage({
      width: 800,
      height: 600,
      background: 'white',
      color: black,
      texts: [{ text: 'Hello World 2024', x: 100, y: 320, size: 56 }],
    }),
  whiteOnPhoto: () =>
    makeTextImage({
      width: 800,
      height: 540,
      background: 'photo',
      color: white,
      font: 'bold',
      texts: [{ text: 'SUMMER HOLIDAY', x: 90, y: 300, size: 60 }],
    }),
  twoLines: () =>
    makeTextImage({
      width: 800,
      height: 600,
      background: 'white',
      color: [20, 30, 120],
      texts: [
        { text: 'Grand Central Station', x: 80, y: 240, size: 44 },
        { text: 'Platform 9 to Boston', x: 80, y: 340, size: 44 },
      ],
    }),
  rotated: () =>
    makeTextImage({
      width: 800,
      height: 600,
      background: 'white',
      color: black,
      angle: 6,
      texts: [{ text: 'Rotated Label 42', x: 140, y: 320, size: 52 }],
    }),
  small: () =>
    makeTextImage({
      width: 1280,
      height: 960,
      background: 'white',
      color: black,
      texts: [{ text: 'small print here', x: 500, y: 600, size: 22 }],
    }),
  receipt: () =>
    makeTextImage({
      width: 540,
      height: 960,
      background: 'white',
      color: [30, 30, 30],
      font: 'mono',
      texts: [
        { text: 'CORNER MARKET', x: 112, y: 165, size: 33 },
        { text: 'Milk 1L      1.29', x: 82, y: 270, size: 24 },
        { text: 'Bread        2.49', x: 82, y: 322, size: 24 },
        { text: 'Apples 1kg   3.10', x: 82, y: 375, size: 24 },
        { text: 'TOTAL        6.88', x: 82, y: 450, size: 24 },
        { text: 'Thank you', x: 172, y: 540, size: 24 },
      ],
    }),
};

export type TextImageName = keyof typeof textImageSet;
