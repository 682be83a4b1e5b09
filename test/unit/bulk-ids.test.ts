import { describe, expect, it } from 'vitest';
import { addOutcomes, removeOutcomes } from '#shared/domain/bulk-ids.ts';

/**
 * Immich's per-id answers of adding assets to and removing them from a memory or a tag, the rule
 * alone (its `addAssets` and `removeAssets` utilities). The handler tests (test/functions/tags.test.ts,
 * v3-memories.test.ts, concurrency.test.ts) prove the routes answer them and store what changed.
 */

describe('addOutcomes', () => {
  it('answers each id once, in the order asked: duplicate (in already, or asked again), no_permission, else success', () => {
    const { results, changed } = addOutcomes(['new', 'in', 'foreign', 'new', 'other'], new Set(['in']), new Set(['new', 'in', 'other']));
    expect(results).toEqual([
      { id: 'new', success: true },
      { id: 'in', success: false, error: 'duplicate' },
      { id: 'foreign', success: false, error: 'no_permission' },
      { id: 'new', success: false, error: 'duplicate' },
      { id: 'other', success: true },
    ]);
    expect(changed).toEqual(['new', 'other']);
  });

  it('calls an id already in it a duplicate before asking whether it is allowed', () => {
    expect(addOutcomes(['in'], new Set(['in']), new Set()).results).toEqual([{ id: 'in', success: false, error: 'duplicate' }]);
  });
});

describe('removeOutcomes', () => {
  it('answers each id once, in the order asked: not_found (not in it, or asked again), else success', () => {
    const { results, changed } = removeOutcomes(['in', 'out', 'in', 'also'], new Set(['in', 'also']));
    expect(results).toEqual([
      { id: 'in', success: true },
      { id: 'out', success: false, error: 'not_found' },
      { id: 'in', success: false, error: 'not_found' },
      { id: 'also', success: true },
    ]);
    expect(changed).toEqual(['in', 'also']);
  });
});
