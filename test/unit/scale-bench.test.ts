import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../bench/scale/assets.ts';
import { type KeptLibrary, loadLibrary, saveLibrary } from '../bench/scale/library.ts';
import { parseScaleArgs, type SizeResult, scaleArgValues, scaleSectionText } from '../bench/scale.ts';

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

  it('reads --deployed and --only (the parts measured), and refuses an unknown part', () => {
    expect(parseScaleArgs(['--reuse', '/a', '--deployed', '--first-syncs', '1'])).toEqual({
      jobs: [{ reuse: '/a' }],
      generateOnly: false,
      firstSyncs: 1,
      deployed: true,
    });
    expect(parseScaleArgs(['--reuse', '/a', '--only', 'map,reads'])).toEqual({
      jobs: [{ reuse: '/a' }],
      generateOnly: false,
      only: ['reads', 'map'],
    });
    expect(() => parseScaleArgs(['--only', 'reads,timeline'])).toThrow(/timeline/);
    const args = ['scale', '--reuse', '/a', '--deployed', '--only', 'reads', 'sync'];
    const values = scaleArgValues(args);
    expect(args.filter((arg) => !values.has(arg))).toEqual(['scale', 'sync']);
  });

  describe("the section's rows: a run rewrites only the sizes (and forms, and with --only the rows) it measured", () => {
    const result = (size: number, form: SizeResult['form'], tag: string, only?: SizeResult['only']): SizeResult => ({
      size,
      form,
      served: form === 'local' ? 'the local server' : 'the deployed form',
      date: '2026-11-29',
      ...(only ? { only } : {}),
      shape: `shape ${tag}`,
      generation: [`generation ${tag}`],
      checks: [`checked ${tag}`],
      syncRows: [['Alex', 'first sync', tag, '', '', '', '', '', '', '', '', '']],
      readRows: [
        ['GET /memories', tag, '', '', '', '', '', ''],
        ['GET /people', tag, '', '', '', '', '', ''],
      ],
      mapRows: [],
      uploadRows: [],
    });
    const rowsOf = (text: string, header: string) => {
      const lines = text.split('\n');
      const at = lines.findIndex((line) => line.startsWith(`| ${header} |`));
      if (at < 0) return [];
      const rows: string[] = [];
      for (let i = at + 2; lines[i]?.startsWith('| '); i++) rows.push(lines[i] as string);
      return rows.map((row) =>
        row
          .split('|')
          .map((cell) => cell.trim())
          .slice(1, 5)
          .join(' '),
      );
    };
    const first = scaleSectionText([
      result(500_000, 'local', 'old500'),
      result(10_000, 'local', 'old10'),
      result(10_000, 'deployed', 'dep10'),
    ]);

    it('writes each form in size order', () => {
      expect(rowsOf(first, 'library')).toEqual(['10k Alex first sync old10', '500k Alex first sync old500']);
      expect(rowsOf(first, 'library (deployed)')).toEqual(['10k Alex first sync dep10']);
      expect(first).toContain('**10k**: shape old10');
      expect(first).toContain('**10k, deployed**: shape dep10. Measured 2026-11-29 through the deployed form');
    });

    it('keeps the other sizes and the other form as the doc had them', () => {
      const next = scaleSectionText([result(500_000, 'deployed', 'dep500'), result(10_000, 'local', 'new10')], first);
      expect(rowsOf(next, 'library')).toEqual(['10k Alex first sync new10', '500k Alex first sync old500']);
      expect(rowsOf(next, 'library (deployed)')).toEqual(['10k Alex first sync dep10', '500k Alex first sync dep500']);
      expect(next).toContain('**500k**: shape old500');
      expect(next).not.toContain('old10');
      expect(next.indexOf('**10k, deployed**')).toBeLessThan(next.indexOf('**500k, deployed**'));
    });

    it('with --only, replaces only the rows it measured again and says so in the paragraph', () => {
      const next = scaleSectionText(
        [{ ...result(500_000, 'local', 'again', ['reads']), syncRows: [], readRows: [['GET /memories', 'again', '', '', '', '', '', '']] }],
        first,
      );
      expect(rowsOf(next, 'library')).toEqual(['10k Alex first sync old10', '500k Alex first sync old500']);
      const reads = next.split('\n').filter((line) => line.startsWith('| 500k | GET /'));
      expect(reads.map((line) => line.split('|')[3]?.trim())).toEqual(['old500', 'again']);
      expect(next).toMatch(/\*\*500k\*\*: shape old500\. .* Measured again 2026-11-29 through the local server: reads/);
    });
  });
});
