import type { IndexName } from './table.ts';

/**
 * Every key shape in the table, as pure functions: item keys (./item-keys.ts, imported as `keys`),
 * the secondary-index attributes items carry (./index-keys.ts, `indexKeys`), and the partitions
 * requests query (./partitions.ts, `partitions`); here, their types and the helpers they share.
 * Each builder is its own export and every module imports them as a namespace (`import * as
 * keys`), so that esbuild bundles only the builders a function uses (an object of them came whole
 * with any one: docs/benchmarks.md). docs/data-model.md lists the same shapes, and
 * test/unit/keys.test.ts checks that they agree.
 */
export interface Key {
  pk: string;
  sk: string;
}

/**
 * A partition a Query reads: of the table (`index` absent) or of a secondary index, optionally
 * narrowed to the sort keys that begin with `prefix`.
 */
export interface Partition {
  index?: IndexName;
  value: string;
  prefix?: string;
}

/** The sort key of everything listed in date order: `<fileCreatedAt>#<assetId>`. */
export const dateOrder = (fileCreatedAt: string, assetId: string): string => `${fileCreatedAt}#${assetId}`;

/** A face index entry's sort key: its number, zero-padded so that the keys sort as the numbers do. */
export const faceIndexSk = (seq: number): string => String(seq).padStart(12, '0');

/** An asset's id from its item's partition key (./item-keys.ts `asset`, `ASSET#<id>`): what an index projection without `id` gives. */
export const assetIdOfPk = (pk: unknown): string => String(pk).slice('ASSET#'.length);

/**
 * gsi3: what changed in one scope (shared/db/sync-scopes.ts), by change id. Its own function, not only
 * `partitions.changes`, so that a writer (shared/db/changes.ts) bundles it without every partition.
 */
export const changesPartition = (scope: string): Partition => ({ index: 'gsi3', value: `CHANGES#${scope}` });
