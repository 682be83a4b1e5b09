import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRgb } from '#shared/media/images.ts';
import { clipTensor, preprocessImage, resizedSize } from '#shared/ml/local/clip-preprocess.ts';
import { resizeBicubic } from '#shared/ml/local/pillow-resize.ts';
import { noisyGradient, pngOf } from '../support/clip-images.ts';
import { makeJpeg } from '../support/photos.ts';

/**
 * Immich's CLIP preprocessing to the last bit: the expected tensors were computed once with
 * Pillow and numpy by Immich's own steps (test/fixtures/README.md, `clip-preprocess.json`).
 */
interface Case {
  resized: [number, number];
  sha256: string;
  sum: number;
  step: number;
  samples: number[];
}
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'clip-preprocess.json'), 'utf8')) as {
  cases: Record<string, Case>;
};
const openai = { size: [224], mean: [0.48145466, 0.4578275, 0.40821073], std: [0.26862954, 0.26130258, 0.27577711] };

const imageOf = (name: string) => {
  const [width, height, seed] = name.split(/[x-]/).map(Number) as [number, number, number];
  return noisyGradient(width, height, seed);
};
const sha256 = (tensor: Float32Array) => createHash('sha256').update(new Uint8Array(tensor.buffer)).digest('hex');
/** The positions and values where the tensor differs from the sampled floats. */
const mismatches = (tensor: Float32Array, expected: Case) =>
  expected.samples.flatMap((value, i) =>
    Math.fround(value) === tensor[i * expected.step] ? [] : [{ at: i * expected.step, got: tensor[i * expected.step], value }],
  );

describe("CLIP preprocessing (Immich's, to the last bit)", () => {
  // 640×480 landscape, 333×517 portrait (odd), 181×97 (enlarged, odd), 1001×1001 square, 1440×1080 preview.
  it.each(Object.keys(fixture.cases))('%s gives exactly the tensor Pillow and numpy give', (name) => {
    const expected = fixture.cases[name] as Case;
    const image = imageOf(name);
    const resized = resizedSize(image.width, image.height, 224);
    expect([resized.width, resized.height]).toEqual(expected.resized);
    const tensor = clipTensor(image, openai);
    expect(tensor.length).toBe(3 * 224 * 224);
    expect(mismatches(tensor, expected)).toEqual([]);
    expect(tensor.reduce((sum, v) => sum + v, 0)).toBeCloseTo(expected.sum, 6);
    expect(sha256(tensor)).toBe(expected.sha256);
  });

  it('fails on a resize one level off at one pixel (the check itself works)', () => {
    const name = '640x480-53';
    const expected = fixture.cases[name] as Case;
    const image = imageOf(name);
    const { width, height } = resizedSize(image.width, image.height, 224);
    const resized = resizeBicubic(image, width, height);
    // The first sampled value is channel R at (0,0) of the crop: left offset (298 - 224) / 2 = 37.
    const at = 37 * 3;
    resized.data[at] = (resized.data[at] as number) + ((resized.data[at] as number) < 255 ? 1 : -1);
    // Already 224 high, so clipTensor resizes only across (a no-op here) and crops the same way.
    const tensor = clipTensor(resized, openai);
    expect(sha256(tensor)).not.toBe(expected.sha256);
    expect(mismatches(tensor, expected).map((m) => m.at)).toEqual([0]);
  });

  it.each([
    [20, 600],
    [600, 20],
    [181, 97],
    [224, 500],
  ])('resizes only the crop of a %i×%i image, to the same pixels as the whole resize', (width, height) => {
    const image = noisyGradient(width, height, 9);
    const target = resizedSize(width, height, 224);
    const whole = resizeBicubic(image, target.width, target.height);
    const left = Math.trunc(target.width / 2 - 112);
    const top = Math.trunc(target.height / 2 - 112);
    const crop = resizeBicubic(image, target.width, target.height, { left, top, width: 224, height: 224 });
    const expected = new Uint8Array(224 * 224 * 3);
    for (let y = 0; y < 224; y++) {
      const from = ((top + y) * whole.width + left) * 3;
      expected.set(whole.data.subarray(from, from + 224 * 3), y * 224 * 3);
    }
    expect(crop.width).toBe(224);
    expect(Buffer.from(crop.data).equals(Buffer.from(expected))).toBe(true);
  });

  it('reads a PNG to the same tensor (decoding is lossless there)', async () => {
    const image = imageOf('333x517-7');
    expect(sha256(await preprocessImage(pngOf(image), openai))).toBe((fixture.cases['333x517-7'] as Case).sha256);
  });

  it("keeps a JPEG's stored orientation, as Pillow's Image.open does (no EXIF rotation)", async () => {
    // 300×200 stored, orientation 6 (shown 200×300): Immich resizes the stored landscape pixels.
    const paint = (x: number) => (x < 150 ? ([250, 10, 10] as [number, number, number]) : undefined);
    const jpeg = makeJpeg({ width: 300, height: 200, color: [10, 10, 250], paint, orientation: 6 });
    const stored = await decodeRgb(jpeg, { orient: false });
    expect([stored.width, stored.height]).toEqual([300, 200]);
    const tensor = await preprocessImage(jpeg, openai);
    expect(tensor).toEqual(clipTensor(stored, openai));
    // Left of the crop red, right blue, in the stored layout.
    const plane = 224 * 224;
    const red = (x: number, y: number) => tensor[y * 224 + x] as number;
    const blue = (x: number, y: number) => tensor[2 * plane + y * 224 + x] as number;
    expect(red(10, 112)).toBeGreaterThan(1.5);
    expect(blue(10, 112)).toBeLessThan(-1);
    expect(red(213, 112)).toBeLessThan(-1);
    expect(blue(213, 112)).toBeGreaterThan(1.5);
  });

  it('rejects a config without three means', () => {
    expect(() => clipTensor(imageOf('181x97-11'), { ...openai, mean: [0.5] })).toThrow(/mean/);
  });
});
