import { Invalid } from '../core/errors.ts';

/**
 * Immich's check of one request's metadata keys: each at most once, else a 400 naming the first
 * one repeated (an upsert cannot write one key twice).
 */
export const requireUniqueKeys = <T>(items: readonly T[], name: (item: T) => string): void => {
  const seen = new Set<string>();
  for (const item of items) {
    const key = name(item);
    if (seen.has(key)) throw new Invalid(`Duplicate items are not allowed: "${key}"`);
    seen.add(key);
  }
};

/** How Immich names one item of the bulk upsert in that message: `(<assetId>, <key>)`. */
export const bulkItemName = (item: { assetId: string; key: string }): string => `(${item.assetId}, ${item.key})`;
