import type { BulkIdResult } from '../model/album.ts';

/**
 * Immich's per-id answers of adding to and removing from a set of assets (its `addAssets` and
 * `removeAssets` utilities, for memories and tags): each id once, in the order asked.
 */

/** Adding: `duplicate` (in it already, or asked twice), `no_permission` (not allowed), else `success`. */
export const addOutcomes = (
  ids: readonly string[],
  present: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
): { results: BulkIdResult[]; changed: string[] } => {
  const changed = new Set<string>();
  const results = ids.map((id): BulkIdResult => {
    if (present.has(id) || changed.has(id)) return { id, success: false, error: 'duplicate' };
    if (!allowed.has(id)) return { id, success: false, error: 'no_permission' };
    changed.add(id);
    return { id, success: true };
  });
  return { results, changed: [...changed] };
};

/** Removing: `not_found` (not in it, or asked twice), else `success`. */
export const removeOutcomes = (ids: readonly string[], present: ReadonlySet<string>): { results: BulkIdResult[]; changed: string[] } => {
  const changed = new Set<string>();
  const results = ids.map((id): BulkIdResult => {
    if (!present.has(id) || changed.has(id)) return { id, success: false, error: 'not_found' };
    changed.add(id);
    return { id, success: true };
  });
  return { results, changed: [...changed] };
};
