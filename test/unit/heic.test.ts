import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DecodedImage, decodeHeic } from '#shared/media/heic.ts';
import { codedImages, gridHeif } from '../support/heif-grid.ts';
import { hangGuard } from '../support/timeouts.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const iphone = readFileSync(join(fixtures, 'iphone.heic'));
const grid = readFileSync(join(fixtures, 'grid.heic'));

/** libheif's own decode of the whole image (its grid tile after tile, on this thread): what ours must equal. */
const libheif = createRequire(import.meta.url)('libheif-js/wasm-bundle');
const reference = async (file: Buffer): Promise<DecodedImage> => {
  await libheif.ready;
  const decoder = new libheif.HeifDecoder();
  const [image] = decoder.decode(file);
  try {
    const width: number = image.get_width();
    const height: number = image.get_height();
    const data: Uint8ClampedArray = await new Promise((resolve, reject) =>
      image.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, (shown: { data: Uint8ClampedArray } | null) =>
        shown ? resolve(shown.data) : reject(new Error('libheif could not decode')),
      ),
    );
    return { width, height, data: new Uint8Array(data.buffer) };
  } finally {
    image.free();
    decoder.decoder.delete();
  }
};

const same = (ours: DecodedImage, theirs: DecodedImage) => {
  expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
  expect(Buffer.compare(Buffer.from(ours.data), Buffer.from(theirs.data))).toBe(0);
};

describe('HEIC decoding, tile by tile in workers (shared/media/heic.ts)', () => {
  it('decodes a one-image HEIC as libheif does', async () => {
    same(await decodeHeic(iphone), await reference(iphone));
  });

  it('decodes a grid as libheif does, turned and mirrored every way HEIF allows (irot, imir)', async () => {
    const tiles = codedImages(grid);
    expect(tiles).toHaveLength(12);
    for (const rotation of [0, 1, 2, 3] as const) {
      for (const mirror of [undefined, 0, 1] as const) {
        const file = gridHeif(tiles, { columns: 4, rows: 3, tileWidth: 64, tileHeight: 64, width: 250, height: 180, rotation, mirror });
        const ours = await decodeHeic(file);
        expect([ours.width, ours.height], `rotation ${rotation}`).toEqual(rotation % 2 === 1 ? [180, 250] : [250, 180]);
        same(ours, await reference(file));
      }
    }
  });

  it('gives the same image on one worker as on all', async () => {
    same(await decodeHeic(grid, { workers: 1 }), await decodeHeic(grid));
  });

  it('rejects a damaged file with libheif’s reason, and decodes the next one', async () => {
    const cut = Buffer.from(grid.subarray(0, grid.length - 2000));
    await expect(decodeHeic(cut)).rejects.toThrow(/HEIF: /);
    await expect(decodeHeic(Buffer.from('not a heif at all'))).rejects.toThrow(/HEIF: reading the file failed/);
    same(await decodeHeic(grid), await reference(grid));
  });

  it('never keeps a process alive once its photo is decoded (the workers wait unref’d)', () => {
    const script = `import { decodeHeic } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'shared', 'media', 'heic.ts'))};
const { width, height } = await decodeHeic(await import('node:fs').then((fs) => fs.readFileSync(${JSON.stringify(join(fixtures, 'grid.heic'))})));
process.stdout.write(width + 'x' + height);`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: hangGuard.process })).toBe(
      '180x250',
    );
  });
});
