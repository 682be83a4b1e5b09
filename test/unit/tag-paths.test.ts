import { describe, expect, it } from 'vitest';
import { isAtOrBelow, isTagPath, tagLimits, tagName, tagPath, tagPathProblem } from '#shared/model/tag.ts';

/**
 * A tag's path and its limits (docs/immich-compatibility.md, "Tags"; issue 49, Medium 5), the rule
 * alone. The handler tests (test/functions/tags-hardening.test.ts) prove both generations' routes
 * and the upload's keywords ask it, and that nothing is written when it refuses.
 */

const levels = (count: number) => Array.from({ length: count }, (_, index) => `L${index}`);

describe('tag paths', () => {
  it('split as Immich splits them: empty parts dropped', () => {
    expect(tagPath('Trip//Rome/')).toEqual(['Trip', 'Rome']);
    expect(tagPath('///')).toEqual([]);
    expect(tagPath('')).toEqual([]);
    expect(tagName({ value: 'Holidays/2024/Rome' })).toBe('Rome');
  });

  it('are at most 20 levels, each name at most 255 characters, the whole at most 1,000', () => {
    expect(tagLimits).toEqual({ levels: 20, name: 255, value: 1000 });
    expect(tagPathProblem(levels(20))).toBeUndefined();
    expect(tagPathProblem(levels(21))).toBe('A tag path has at most 20 levels');
    expect(tagPathProblem(['y'.repeat(255)])).toBeUndefined();
    expect(tagPathProblem(['y'.repeat(256)])).toBe('A tag name has at most 255 characters');
    // Four names of 249 and three slashes: 999, then 1,003.
    expect(tagPathProblem(Array.from({ length: 4 }, () => 'p'.repeat(249)))).toBeUndefined();
    expect(tagPathProblem(Array.from({ length: 4 }, () => 'p'.repeat(250)))).toBe('A tag path has at most 1000 characters');
    expect(tagPathProblem([])).toBe('A tag name must not be empty');
  });

  it('name the first problem: a long name before a long path before a deep one', () => {
    expect(tagPathProblem([...levels(21), 'z'.repeat(300)])).toBe('A tag name has at most 255 characters');
    expect(tagPathProblem(Array.from({ length: 21 }, () => 'q'.repeat(60)))).toBe('A tag path has at most 1000 characters');
  });

  it('keep a file’s keyword only when it can be a tag’s path', () => {
    expect(isTagPath('Good/Keyword')).toBe(true);
    expect(isTagPath(levels(25).join('/'))).toBe(false);
    expect(isTagPath(`Long/${'z'.repeat(300)}`)).toBe(false);
    expect(isTagPath('//')).toBe(false);
  });

  it('hold a tag below another by its whole names, not by a prefix of one', () => {
    expect(isAtOrBelow({ value: 'Trip' }, { value: 'Trip' })).toBe(true);
    expect(isAtOrBelow({ value: 'Trip/Rome' }, { value: 'Trip' })).toBe(true);
    expect(isAtOrBelow({ value: 'Trips/Rome' }, { value: 'Trip' })).toBe(false);
    expect(isAtOrBelow({ value: 'Trip' }, { value: 'Trip/Rome' })).toBe(false);
  });
});
