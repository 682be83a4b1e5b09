import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checksumHex, fold, likeMatcher, matchesSearch, searchOrder } from '#shared/domain/search.ts';
import { assetTerms, words } from '#shared/domain/terms.ts';
import { SearchAssetsDto } from '#shared/dto/v1/search.ts';
import type { AssetRecord } from '#shared/model/asset.ts';

const base = {
  id: 'a',
  ownerId: 'u',
  originalFileName: 'Île de Ré.JPG',
  checksum: '0a'.repeat(20),
  fileCreatedAt: '2021-06-15T12:00:00.000Z',
  createdAt: '2021-06-15T12:00:00.000Z',
  updatedAt: '2021-06-15T12:00:00.000Z',
  deletedAt: null,
  visibility: 'timeline',
  personIds: ['p1', 'p2'],
  albumCount: 0,
  livePhotoVideoId: null,
  exif: { make: 'Canon', model: 'R5', lensModel: null, city: 'Oslo', state: null, country: 'Norway', description: 'Ferry to the island' },
} as unknown as AssetRecord;

describe('the search predicate (Immich v1.100 metadata search)', () => {
  it('matches EXIF values exactly and case-sensitively', () => {
    expect(matchesSearch(base, { make: 'Canon' })).toBe(true);
    expect(matchesSearch(base, { make: 'canon' })).toBe(false);
  });

  it('matches the file name as a partial, case- and accent-insensitive pattern, with % and _ as wildcards', () => {
    expect(matchesSearch(base, { originalFileName: 'ile de' })).toBe(true);
    expect(matchesSearch(base, { originalFileName: 'île%ré' })).toBe(true);
    expect(matchesSearch(base, { originalFileName: '_le' })).toBe(true);
    expect(matchesSearch(base, { originalFileName: 'ile.de' })).toBe(false);
  });

  it('keeps trashed assets out unless asked, and archived ones unless asked', () => {
    const trashed = { ...base, deletedAt: '2022-01-01T00:00:00.000Z' };
    expect(matchesSearch(trashed, {})).toBe(false);
    expect(matchesSearch(trashed, { withDeleted: true })).toBe(true);
    expect(matchesSearch(trashed, { trashedAfter: '2021-12-31T00:00:00.000Z' })).toBe(true);
    const archived = { ...base, visibility: 'archive' as const };
    expect(matchesSearch(archived, {})).toBe(false);
    // v1.100's withArchived and isArchived, as its DTO reads them into the filters.
    expect(matchesSearch(archived, v.parse(SearchAssetsDto, { withArchived: 'true' }))).toBe(true);
    expect(matchesSearch(archived, v.parse(SearchAssetsDto, { isArchived: 'true' }))).toBe(true);
  });

  it('takes date bounds inclusively and people as all-of', () => {
    expect(matchesSearch(base, { takenAfter: base.fileCreatedAt, takenBefore: base.fileCreatedAt })).toBe(true);
    expect(matchesSearch(base, { takenAfter: '2021-06-15T12:00:00.001Z' })).toBe(false);
    expect(matchesSearch(base, { personIds: ['p2', 'p1'] })).toBe(true);
    expect(matchesSearch(base, { personIds: ['p1', 'p3'] })).toBe(false);
  });

  it('orders by fileCreatedAt, then id, in either direction', () => {
    const later = { ...base, id: 'b', fileCreatedAt: '2022-01-01T00:00:00.000Z' };
    const tie = { ...base, id: 'c' };
    expect([later, tie, base].sort(searchOrder('asc')).map((a) => a.id)).toEqual(['a', 'c', 'b']);
    expect([base, tie, later].sort(searchOrder('desc')).map((a) => a.id)).toEqual(['b', 'c', 'a']);
  });

  it('reads a checksum as base64 (28 characters) or hex', () => {
    const hex = '0a'.repeat(20);
    expect(checksumHex(Buffer.from(hex, 'hex').toString('base64'))).toBe(hex);
    expect(checksumHex(hex.toUpperCase())).toBe(hex);
  });
});

describe('text search words', () => {
  it('folds accents and case, splits on anything but letters and digits', () => {
    expect(fold('Île')).toBe('ile');
    expect(words('Île-de-Ré, 2021!')).toEqual(['ile', 'de', 're', '2021']);
  });

  it('finds an asset by its camera, place, description, file name and people', () => {
    expect(assetTerms(base, ['Dana Scully'])).toEqual(
      expect.arrayContaining(['canon', 'r5', 'oslo', 'norway', 'ferry', 'island', 'jpg', 'dana', 'scully']),
    );
  });
});

describe('the file-name pattern (ILIKE %value%)', () => {
  // An independent oracle: the regular expression PostgreSQL's LIKE means, on short inputs only.
  const oracle = (value: string, text: string): boolean =>
    new RegExp(
      Array.from(fold(value))
        .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join(''),
      'su',
    ).test(fold(text));

  it('agrees with the regular expression on every short pattern over a small alphabet', () => {
    const alphabet = ['a', 'b', '%', '_', 'É'];
    const patterns: string[] = [''];
    for (let length = 1; length <= 4; length++)
      for (const prefix of patterns.filter((p) => p.length === length - 1)) for (const c of alphabet) patterns.push(prefix + c);
    const texts = ['', 'a', 'ab', 'ba', 'aab', 'abba', 'éab', 'baaab', 'bbbb'];
    for (const pattern of patterns)
      for (const text of texts) expect(likeMatcher(pattern)(text), `${pattern} ~ ${text}`).toBe(oracle(pattern, text));
  });

  it('answers a pattern of many wildcards against a long near-miss at once (a backtracking regex takes minutes)', () => {
    const name = `${'a'.repeat(60)}.jpg`;
    expect(likeMatcher(`${'%a'.repeat(12)}%zz`)(name)).toBe(false);
    expect(likeMatcher('%%%%a%%%%.%jpg%%')(name)).toBe(true);
  });
});
