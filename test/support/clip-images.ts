/**
 * Pixels for the CLIP preprocessing tests: a gradient with seeded noise and a few hard edges
 * (every resampling tap matters, and any off-by-one level shows), and a plain PNG writer for it.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

/** mulberry32: a small seeded PRNG, the same numbers on every machine. */
const random = (seed: number): (() => number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
};

const clip = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));

/** A noisy gradient with a bright bar and a dark disc: deterministic for (width, height, seed). */
export const noisyGradient = (width: number, height: number, seed: number): Rgb => {
  const next = random(seed);
  const noise = () => (next() - 0.5) * 60;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bar = x > width * 0.3 && x < width * 0.35 ? 120 : 0;
      const dx = x - width * 0.7;
      const dy = y - height * 0.4;
      const disc = dx * dx + dy * dy < (Math.min(width, height) * 0.15) ** 2 ? -150 : 0;
      const i = (y * width + x) * 3;
      data[i] = clip((x * 255) / width + noise() + bar + disc);
      data[i + 1] = clip((y * 255) / height + noise() + disc);
      data[i + 2] = clip(((x + y) % 256) + noise() + bar);
    }
  }
  return { width, height, data };
};

const chunk = (type: string, body: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
};

/** An 8-bit RGB PNG of the pixels (lossless: any decoder gives them back). */
export const pngOf = ({ width, height, data }: Rgb): Buffer => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rows.set(data.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
