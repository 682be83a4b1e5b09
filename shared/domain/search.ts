import type { AssetRecord } from '../model/asset.ts';
import { defaultSearchVisibilities, type SearchFilters } from '../model/search.ts';

export type { SearchFilters } from '../model/search.ts';

/** Lower-cased, accents removed (PostgreSQL's f_unaccent + ILIKE). */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Where `segment` (code points, `_` matching any one) first occurs in `text` at or after `from`, or -1. */
const findSegment = (text: readonly string[], segment: readonly string[], from: number): number => {
  outer: for (let start = from; start + segment.length <= text.length; start++) {
    for (let i = 0; i < segment.length; i++) if (segment[i] !== '_' && segment[i] !== text[start + i]) continue outer;
    return start;
  }
  return -1;
};

/**
 * `ILIKE '%value%'`: a substring, where `%` and `_` in the value are wildcards (as in Immich),
 * case- and accent-insensitive. Matched without a regular expression, in time bounded by the
 * lengths of the two strings: the value is split at its `%`s and each part is found after the
 * previous one (finding each as early as possible is always right for `%…%` patterns). A regex
 * with many `.*` backtracks exponentially on a name that almost matches.
 */
export const likeMatcher = (value: string): ((text: string) => boolean) => {
  const segments = Array.from(fold(value))
    .join('')
    .split('%')
    .filter((segment) => segment !== '')
    .map((segment) => Array.from(segment));
  return (text) => {
    const folded = Array.from(fold(text));
    let position = 0;
    for (const segment of segments) {
      const found = findSegment(folded, segment, position);
      if (found < 0) return false;
      position = found + segment.length;
    }
    return true;
  };
};

/** SHA-1 as Immich reads it: 28 characters are base64, anything else hex (stored form: lower-case hex). */
export const checksumHex = (checksum: string): string =>
  checksum.length === 28 ? Buffer.from(checksum, 'base64').toString('hex') : checksum.toLowerCase();

const within = (value: string | null, after?: string | null, before?: string | null): boolean => {
  if (!after && !before) return true;
  if (value === null) return false;
  const time = Date.parse(value);
  return (!after || time >= Date.parse(after)) && (!before || time <= Date.parse(before));
};

/**
 * Immich v1.100's metadata search (`searchAssetBuilder`) as a predicate on one of the caller's
 * assets. Exact, case-sensitive EXIF and field matches; a partial, case- and accent-insensitive
 * file name; inclusive date bounds; all-of people; trashed only with withDeleted (which a trashed
 * bound turns on); of the visibilities asked for (absent, neither the archive nor the locked folder).
 */
export const matchesSearch = (asset: AssetRecord, f: SearchFilters): boolean => {
  const exact = <K extends keyof AssetRecord>(key: K, value: AssetRecord[K] | null | undefined) =>
    value === undefined || value === null || asset[key] === value;
  const exif = (key: 'make' | 'model' | 'lensModel' | 'city' | 'state' | 'country', value: string | null | undefined) =>
    value === undefined || value === null || asset.exif[key] === value;
  const trashedBound = Boolean(f.trashedAfter || f.trashedBefore);
  const withDeleted = f.withDeleted ?? trashedBound;
  const isVisible = asset.visibility !== 'hidden';
  return (
    f.matchesNothing !== true &&
    (f.visibilities ?? defaultSearchVisibilities).includes(asset.visibility) &&
    (f.rating === undefined || asset.exif.rating === f.rating) &&
    (f.description === undefined || fold(asset.exif.description ?? '').includes(fold(f.description))) &&
    (f.amongAssets === undefined || f.amongAssets.has(asset.id)) &&
    exact('id', f.id) &&
    exact('libraryId', f.libraryId) &&
    exact('deviceId', f.deviceId) &&
    exact('deviceAssetId', f.deviceAssetId) &&
    exact('type', f.type) &&
    exact('originalPath', f.originalPath) &&
    exact('isFavorite', f.isFavorite) &&
    exact('isOffline', f.isOffline) &&
    exact('isReadOnly', f.isReadOnly) &&
    exact('isExternal', f.isExternal) &&
    (f.resizePath === undefined || f.resizePath === null || asset.resizePath === f.resizePath) &&
    // A WebP thumbnail path never matches; a video's encoded version is its key in the store (docs/media.md, "Transcoding").
    (f.webpPath === undefined || f.webpPath === null) &&
    (f.encodedVideoPath === undefined || f.encodedVideoPath === null || asset.encodedVideoPath === f.encodedVideoPath) &&
    (f.checksum === undefined || f.checksum === null || asset.checksum === checksumHex(f.checksum)) &&
    (f.originalFileName === undefined || f.originalFileName === null || likeMatcher(f.originalFileName)(asset.originalFileName)) &&
    exif('make', f.make) &&
    exif('model', f.model) &&
    exif('lensModel', f.lensModel) &&
    exif('city', f.city) &&
    exif('state', f.state) &&
    exif('country', f.country) &&
    (f.isEncoded !== true || asset.encodedVideoPath !== undefined) &&
    (f.isMotion !== true || asset.livePhotoVideoId !== null) &&
    (f.isNotInAlbum !== true || (asset.albumCount === 0 && isVisible)) &&
    (!f.personIds || f.personIds.every((id) => asset.personIds.includes(id))) &&
    within(asset.createdAt, f.createdAfter, f.createdBefore) &&
    within(asset.updatedAt, f.updatedAfter, f.updatedBefore) &&
    within(asset.fileCreatedAt, f.takenAfter, f.takenBefore) &&
    (trashedBound ? asset.deletedAt !== null && within(asset.deletedAt, f.trashedAfter, f.trashedBefore) : true) &&
    (withDeleted || asset.deletedAt === null) &&
    (f.treeMatch === undefined || f.treeMatch(asset))
  );
};

/** Result order: fileCreatedAt, then id, both in the requested direction (the indexes' own order). */
export const searchOrder =
  (order: 'asc' | 'desc') =>
  (a: AssetRecord, b: AssetRecord): number => {
    const byKey = `${a.fileCreatedAt}#${a.id}`.localeCompare(`${b.fileCreatedAt}#${b.id}`);
    return order === 'asc' ? byKey : -byKey;
  };
