import { describe, expect, it } from 'vitest';
import { fileNameOf, folderOf, isDirectlyIn, normalizeFolder } from '#shared/domain/folders.ts';

/**
 * The folders view's rules (docs/immich-compatibility.md, "The folders view"), alone: an asset's
 * folder, and which assets are directly in a folder named by its whole path or by its end. The
 * handler tests (test/functions/v3-folders.test.ts) prove the routes read them from the table.
 */

const path = 'upload/u1/ab/cd/abcd1234.jpg';

describe('folders', () => {
  it('are the directory of an original path, without the trailing slash', () => {
    expect(folderOf(path)).toBe('upload/u1/ab/cd');
    expect(folderOf('no-folder.jpg')).toBe('');
    expect(fileNameOf(path)).toBe('abcd1234.jpg');
    expect(normalizeFolder('upload/u1/ab/cd///')).toBe('upload/u1/ab/cd');
  });

  it('hold the assets directly in them, named by the whole path or its end, never those below', () => {
    expect(isDirectlyIn(path, 'upload/u1/ab/cd')).toBe(true);
    expect(isDirectlyIn(path, 'ab/cd')).toBe(true);
    expect(isDirectlyIn(path, 'cd')).toBe(true);
    expect(isDirectlyIn(path, 'upload/u1/ab')).toBe(false);
    expect(isDirectlyIn(path, 'upload/u1/ab/c')).toBe(false);
    expect(isDirectlyIn(path, 'elsewhere')).toBe(false);
  });
});
