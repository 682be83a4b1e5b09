/** `items` in runs of `size` (DynamoDB's per-call limits: 25 writes, 100 reads or transaction items). */
export const chunk = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
