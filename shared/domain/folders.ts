/**
 * The folders view's rules (Immich v3's view repository): a folder is the directory of an asset's
 * original path, and a folder's assets are those directly in it. Here originals are kept at
 * `upload/<ownerId>/<ab>/<cd>/<assetId><ext>` (shared/domain/upload-files.ts), the layout of an
 * Immich that has no storage template, so its folders are the same (docs/immich-compatibility.md,
 * "The folders view").
 */

/** The directory of a path, without its trailing `/` (Immich's: the path up to its last slash). */
export const folderOf = (originalPath: string): string => originalPath.slice(0, Math.max(0, originalPath.lastIndexOf('/')));

/** A folder asked for, its trailing slashes removed (as Immich's). */
export const normalizeFolder = (path: string): string => path.replace(/\/+$/, '');

/**
 * Immich's match: the path holds `<folder>/` and nothing below it (`LIKE '%<folder>/%'` and not
 * `LIKE '%<folder>/%/%'`), so a folder may be named by its whole path or by its end.
 */
export const isDirectlyIn = (originalPath: string, folder: string): boolean => {
  const at = originalPath.indexOf(`${folder}/`);
  return at >= 0 && !originalPath.slice(at + folder.length + 1).includes('/');
};

/** The file name a folder's assets are ordered by (Immich orders them by it). */
export const fileNameOf = (originalPath: string): string => originalPath.slice(originalPath.lastIndexOf('/') + 1);
