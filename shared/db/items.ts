/** Helpers every repository shares for turning items into records and writes into calls. */

/** A record from its item: the key, index and entity-type attributes removed. */
export const strip = <T>(item: Record<string, unknown>): T => {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest as T;
};

/** `items` in runs of `size` (DynamoDB's per-call limits: 25 writes, 100 reads or transaction items). */
export const chunk = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
