/**
 * The perceptual hashes that find duplicates without machine learning (shared/media/perceptual-hash.ts;
 * docs/immich-compatibility.md, "Duplicates"): a photo and its copies saved again are within both
 * thresholds; other photos, another shot of one scene, a mirror or a quarter turn are not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import Vips from 'wasm-vips';
import { perceptualHash } from '#shared/media/image-hash.ts';
import {
  compareHashes,
  dhashOfGrey,
  duplicateThresholds,
  hamming,
  type PerceptualHash,
  packedDuplicates,
  packHash,
  phashOfGrey,
  unpackHash,
} from '#shared/media/perceptual-hash.ts';
import { makeJpeg } from '../support/photos.ts';
import { makeScene, shootScene } from '../support/scenes.ts';

let vips: Awaited<ReturnType<typeof Vips>>;
beforeAll(async () => {
  vips = await Vips();
});

// Real photos that ship in an npm package (read from node_modules, never committed: test/support/people-photos.ts).
const realPhoto = (n: number): Buffer =>
  readFileSync(join(import.meta.dirname, '..', '..', 'node_modules', '@vladmandic', 'face-api', 'demo', `sample${n}.jpg`));

/** The copies of a photo that are the same photo: saved again smaller, recompressed, as WebP, 4 px cropped off each side. */
const copiesOf = (bytes: Buffer): Record<string, Buffer> => {
  const image = vips.Image.newFromBuffer(bytes);
  return {
    half: Buffer.from(image.resize(0.5).jpegsaveBuffer({ Q: 90 })),
    jpegQ40: Buffer.from(image.jpegsaveBuffer({ Q: 40 })),
    webp: Buffer.from(image.webpsaveBuffer({ Q: 70 })),
    crop4px: Buffer.from(image.crop(4, 4, image.width - 8, image.height - 8).jpegsaveBuffer({ Q: 90 })),
  };
};

/** The hashes of a photo that is not flat. */
const hashOf = async (bytes: Uint8Array): Promise<PerceptualHash> => {
  const hash = await perceptualHash(bytes);
  if (!hash) throw new Error('A flat image');
  return hash;
};

const shot = (seed: number, options: Parameters<typeof shootScene>[1] = {}) =>
  shootScene(makeScene(seed), { width: 640, height: 480, grainSeed: seed, ...options });

describe('perceptual hashes', () => {
  it('lays out the bits as documented: a left-to-right brightening sets every row bit and no column bit', () => {
    const grey = new Uint8Array(81).map((_, i) => (i % 9) * 20);
    const dhash = dhashOfGrey(grey);
    expect([...dhash.subarray(0, 8)]).toEqual(Array(8).fill(0xff));
    expect([...dhash.subarray(8)]).toEqual(Array(8).fill(0));
    // The DC term (the first bit) of a bright image is above the median of the others.
    expect((phashOfGrey(new Uint8Array(1024).map((_, i) => 100 + (i % 32))).at(0) ?? 0) & 0x80).toBe(0x80);
    expect(() => phashOfGrey(new Uint8Array(81))).toThrow();
  });

  it("gives a flat image (one colour, a nearly black frame) no hash: it would be every other flat image's duplicate", async () => {
    expect(await perceptualHash(makeJpeg({ width: 320, height: 240, color: [30, 120, 200] }))).toBeUndefined();
    const dark = makeJpeg({ width: 320, height: 240, paint: (x, y) => [(x * 7 + y * 3) % 3, (x + y) % 2, 1] });
    expect(await perceptualHash(dark)).toBeUndefined();
    // A photo of little contrast still has one.
    expect(await perceptualHash(shot(7, { gain: 0.25 }))).toBeDefined();
  });

  it('packs both hashes in 24 bytes and counts differing bits', () => {
    const hash: PerceptualHash = { phash: new Uint8Array(8).fill(0x0f), dhash: new Uint8Array(16).fill(0x01) };
    const packed = packHash(hash);
    expect(packed.length).toBe(24);
    expect(unpackHash(packed)).toEqual(hash);
    expect(unpackHash(new Uint8Array(8))).toBeUndefined();
    expect(hamming(hash.phash, new Uint8Array(8))).toBe(32);
    expect(compareHashes(hash, hash)).toEqual({ phash: 0, dhash: 0, duplicate: true });
    // Packed: 10 pHash bits and 20 dHash bits apart still agree, one more of either does not.
    const near = packHash(hash);
    near.set([0x0f ^ 0xff, 0x0f ^ 0x03], 0);
    near.set([0x01 ^ 0xff, 0x01 ^ 0xff, 0x01 ^ 0x0f], 8);
    expect(packedDuplicates(packHash(hash), near)).toBe(true);
    near[2] = 0x0f ^ 0x01;
    expect(packedDuplicates(packHash(hash), near)).toBe(false);
    near[2] = 0x0f;
    near[11] = 0x01 ^ 0x01;
    expect(packedDuplicates(packHash(hash), near)).toBe(false);
    expect(packedDuplicates(packHash(hash), new Uint8Array(8))).toBe(false);
  });

  it.each([
    ['a generated scene', () => shot(1)],
    ['another generated scene', () => shot(2)],
    ['a real photo', () => realPhoto(2)],
    ['another real photo', () => realPhoto(5)],
  ])('finds %s and its resized, recompressed, WebP and 4px-cropped copies the same photo', async (_name, make) => {
    const photo = make();
    const original = await hashOf(photo);
    for (const [copy, bytes] of Object.entries(copiesOf(photo))) {
      const hash = await hashOf(bytes);
      const distance = compareHashes(original, hash);
      // The stored forms compare alike (what a detection runs over an owner's hashes).
      expect(packedDuplicates(packHash(original), packHash(hash))).toBe(true);
      expect({ copy, ...distance }).toEqual({ copy, phash: distance.phash, dhash: distance.dhash, duplicate: true });
      expect(distance.phash).toBeLessThanOrEqual(4);
      expect(distance.dhash).toBeLessThanOrEqual(8);
    }
  });

  it('does not take another shot of one scene (10% aside), its mirror or a quarter turn for the same photo', async () => {
    for (const seed of [3, 4, 5]) {
      const original = await hashOf(shot(seed));
      const aside = compareHashes(original, await hashOf(shot(seed, { shiftX: 0.1 })));
      expect(aside.duplicate).toBe(false);
      const image = vips.Image.newFromBuffer(shot(seed));
      for (const turned of [image.flip('horizontal'), image.rot90()])
        expect(compareHashes(original, await hashOf(Buffer.from(turned.jpegsaveBuffer({ Q: 90 })))).duplicate).toBe(false);
    }
  });

  it('finds no two of a folder of different photos (16 generated scenes, 6 real photos) the same', async () => {
    const photos = [...Array.from({ length: 16 }, (_, i) => shot(100 + i)), ...[1, 2, 3, 4, 5, 6].map(realPhoto)];
    const hashes = await Promise.all(photos.map((photo) => hashOf(photo)));
    const close: string[] = [];
    let nearest = { phash: 64, dhash: 128 };
    for (let i = 0; i < hashes.length; i++)
      for (let j = i + 1; j < hashes.length; j++) {
        const distance = compareHashes(hashes[i] as PerceptualHash, hashes[j] as PerceptualHash);
        if (distance.duplicate || packedDuplicates(packHash(hashes[i] as PerceptualHash), packHash(hashes[j] as PerceptualHash)))
          close.push(`${i}-${j}`);
        nearest = { phash: Math.min(nearest.phash, distance.phash), dhash: Math.min(nearest.dhash, distance.dhash) };
      }
    expect(close).toEqual([]);
    // The nearest pair by pHash (two generated scenes of similar layout) is still far by dHash:
    // both must agree, and the dHash keeps a wide margin.
    expect(nearest.phash).toBeGreaterThan(duplicateThresholds.phash);
    expect(nearest.dhash).toBeGreaterThan(duplicateThresholds.dhash + 8);
  });
});
