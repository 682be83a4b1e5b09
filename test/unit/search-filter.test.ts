import { describe, expect, it } from 'vitest';
import { compileTree, type TreeSets, treeCandidates } from '#shared/domain/search-filter.ts';
import type { AssetRecord } from '#shared/model/asset.ts';
import type { FilterTree } from '#shared/model/search-filter.ts';

const asset = {
  id: 'a',
  ownerId: 'u',
  libraryId: null,
  type: 'IMAGE',
  visibility: 'timeline',
  originalFileName: 'Île de Ré.JPG',
  originalPath: 'upload/u/a.jpg',
  checksum: '0a'.repeat(20),
  fileCreatedAt: '2021-06-15T12:00:00.000Z',
  createdAt: '2021-06-16T12:00:00.000Z',
  updatedAt: '2021-06-17T12:00:00.000Z',
  deletedAt: null,
  isFavorite: false,
  isOffline: false,
  livePhotoVideoId: null,
  personIds: ['p1'],
  faceIds: ['f1'],
  albumCount: 1,
  exif: { make: 'Canon', city: null, rating: 4, fileSizeInByte: 2000, description: 'Ferry to the island' },
} as unknown as AssetRecord;

const sets: TreeSets = {
  albums: new Map([
    ['al1', new Set(['a', 'b'])],
    ['al2', new Set(['b', 'c'])],
  ]),
  tags: new Map([['t1', new Set(['c'])]]),
  ocr: new Map([['stop', new Set(['a', 'd'])]]),
  tagged: new Set(['c']),
};
const holds = (tree: FilterTree) => compileTree(tree, sets)(asset);

describe('the filter tree’s test (3.2’s SearchFilter)', () => {
  it('a level is an and; or needs one branch', () => {
    expect(holds({ make: { eq: 'Canon' }, isFavorite: { eq: false } })).toBe(true);
    expect(holds({ make: { eq: 'Canon' }, isFavorite: { eq: true } })).toBe(false);
    expect(holds({ or: [{ make: { eq: 'Nikon' } }, { rating: { gte: 4 } }] })).toBe(true);
    expect(holds({ make: { eq: 'Nikon' }, or: [{ rating: { gte: 4 } }] })).toBe(false);
    expect(holds({ or: [{}] })).toBe(true);
  });

  it('an empty field holds only for eq null (and is neither equal nor unequal to a value)', () => {
    expect(holds({ city: { eq: null } })).toBe(true);
    expect(holds({ city: { ne: 'Oslo' } })).toBe(false);
    expect(holds({ city: { notIn: ['Oslo'] } })).toBe(false);
    expect(holds({ city: { ne: null } })).toBe(false);
    expect(holds({ make: { ne: null } })).toBe(true);
    expect(holds({ libraryId: { eq: null } })).toBe(true);
  });

  it('ranges on numbers and instants, bounds strict or not', () => {
    expect(holds({ rating: { gt: 3, lte: 4 } })).toBe(true);
    expect(holds({ rating: { gt: 4 } })).toBe(false);
    expect(holds({ fileSizeInBytes: { in: [1000, 2000] } })).toBe(true);
    expect(holds({ takenAt: { eq: '2021-06-15T12:00:00.000Z' } })).toBe(true);
    expect(holds({ takenAt: { gt: '2021-06-15T12:00:00.000Z' } })).toBe(false);
    expect(holds({ createdAt: { gte: '2021-06-16T00:00:00.000Z', lt: '2021-06-17T00:00:00.000Z' } })).toBe(true);
    expect(holds({ trashedAt: { eq: null } })).toBe(true);
    expect(holds({ trashedAt: { gte: '2000-01-01T00:00:00.000Z' } })).toBe(false);
  });

  it('text parts case- and accent-insensitive; exact values case-sensitive; checksums in hex or base64', () => {
    expect(holds({ originalFileName: { like: 'ile%re' } })).toBe(true);
    expect(holds({ originalFileName: { startsWith: 'ILE' }, description: { endsWith: 'ISLAND' } })).toBe(true);
    expect(holds({ description: { notLike: 'ferry' } })).toBe(false);
    expect(holds({ originalFileName: { eq: 'île de ré.jpg' } })).toBe(false);
    expect(holds({ checksum: { eq: Buffer.from('0a'.repeat(20), 'hex').toString('base64') } })).toBe(true);
    expect(holds({ checksum: { notIn: ['0A'.repeat(20)] } })).toBe(false);
  });

  it('albums, people, tags and text by the sets read; flags on the asset', () => {
    expect(holds({ albumIds: { any: ['al1', 'al2'] } })).toBe(true);
    expect(holds({ albumIds: { all: ['al1', 'al2'] } })).toBe(false);
    expect(holds({ albumIds: { none: ['al2'] }, tagIds: { none: ['t1'] } })).toBe(true);
    expect(holds({ personIds: { all: ['p1'] }, hasPeople: { eq: true }, hasAlbums: { eq: true }, hasTags: { eq: false } })).toBe(true);
    expect(holds({ ocr: { matches: 'stop' } })).toBe(true);
    expect(holds({ ocr: { matches: 'other' } })).toBe(false);
    expect(holds({ type: { notIn: ['VIDEO'] }, visibility: { in: ['timeline', 'archive'] }, isMotion: { eq: false } })).toBe(true);
  });
});

describe('the filter tree’s candidates (the driver)', () => {
  it('the top level’s set conditions intersected, the branches’ united when each has one', () => {
    expect(treeCandidates({ albumIds: { any: ['al1', 'al2'] } }, sets)).toEqual(new Set(['a', 'b', 'c']));
    expect(treeCandidates({ albumIds: { all: ['al1', 'al2'] } }, sets)).toEqual(new Set(['b']));
    expect(treeCandidates({ albumIds: { any: ['al1'] }, ocr: { matches: 'stop' } }, sets)).toEqual(new Set(['a']));
    expect(treeCandidates({ or: [{ tagIds: { any: ['t1'] } }, { ocr: { matches: 'stop' } }] }, sets)).toEqual(new Set(['a', 'c', 'd']));
    expect(treeCandidates({ id: { eq: 'x' }, albumIds: { any: ['al1'] } }, sets)).toEqual(new Set());
  });

  it('none when a branch or the top level has no set condition (the timeline is walked)', () => {
    expect(treeCandidates({ or: [{ tagIds: { any: ['t1'] } }, { make: { eq: 'Canon' } }] }, sets)).toBeUndefined();
    expect(treeCandidates({ albumIds: { none: ['al1'] } }, sets)).toBeUndefined();
    expect(treeCandidates({}, sets)).toBeUndefined();
  });
});
