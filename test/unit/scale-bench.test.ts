import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../bench/scale/assets.ts';
import { type KeptLibrary, loadLibrary, saveLibrary } from '../bench/scale/library.ts';
import { parseScaleArgs, scaleArgValues } from '../bench/scale.ts';

/**
 * The scale bench's own plumbing (test/bench/scale.ts, docs/large-libraries.md, "Keeping a library
 * and measuring it again"): its arguments, the kept library's description, the seeded generator.
 */
describe('the scale bench', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scale-bench-unit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads sizes, --keep, --reuse, --generate-only and --first-syncs', () => {
    expect(parseScaleArgs([])).toEqual({ jobs: [{ size: 100_000 }], generateOnly: false });
    expect(parseScaleArgs(['10k', '100000', '--reuse', '/dev/shm/scale', '--first-syncs', '1'])).toEqual({
      jobs: [{ size: 10_000 }, { size: 100_000 }, { reuse: '/dev/shm/scale' }],
      generateOnly: false,
      firstSyncs: 1,
    });
    expect(parseScaleArgs(['500k', '--keep', '/dev/shm/scale', '--generate-only'])).toEqual({
      jobs: [{ size: 500_000, keep: '/dev/shm/scale' }],
      generateOnly: true,
    });
    expect(parseScaleArgs(['--reuse', '/a'])).toEqual({ jobs: [{ reuse: '/a' }], generateOnly: false });
    expect(() => parseScaleArgs(['10k', '100k', '--keep', '/d'])).toThrow(/one size/);
    expect(() => parseScaleArgs(['--reuse'])).toThrow(/missing/);
  });

  it("tells npm run bench's section names from the scale section's arguments", () => {
    const args = ['scale', '10k', '--reuse', '/dev/shm/scale', '--first-syncs', '2', 'sync'];
    const values = scaleArgValues(args);
    expect(args.filter((arg) => !values.has(arg))).toEqual(['scale', 'sync']);
  });

  it('keeps a library description and reads it back as it was', () => {
    const lib: KeptLibrary = {
      size: 10_000,
      tableName: 'scale',
      users: [
        {
          id: 'u1',
          email: 'scale0@immich.cloud',
          name: 'Alex',
          password: 'password',
          assets: [
            {
              id: 'a1',
              checksum: 'ab',
              localDateTime: '2020-01-01T10:00:00.000Z',
              visibility: 'timeline',
              trashed: false,
              isFavorite: true,
            },
            {
              id: 'a2',
              checksum: 'cd',
              localDateTime: '2021-02-01T10:00:00.000Z',
              visibility: 'archive',
              trashed: true,
              isFavorite: false,
            },
          ],
          faces: 3,
          people: [{ id: 'p1', faceCount: 3 }],
        },
      ],
      albums: [{ entries: 2, shared: true }],
      stacks: 1,
      memories: 2,
      tagged: 3,
      items: 44,
      generation: '44 items',
      runs: 1,
    };
    saveLibrary(dir, lib);
    expect(loadLibrary(dir)).toEqual(lib);
    expect(() => loadLibrary(join(dir, 'none'))).toThrow(/--keep/);
  });

  it('draws the same numbers from the same seed, in [0, 1), without a short cycle', () => {
    const a = seeded(55_055);
    const b = seeded(55_055);
    const draws = Array.from({ length: 100_000 }, () => a.random());
    expect(Array.from({ length: 100_000 }, () => b.random())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(draws).size).toBeGreaterThan(99_900);
    expect(seeded(1).random()).not.toBe(seeded(2).random());
  });
});
