import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { searchableExifFields } from '../model/asset.ts';

/**
 * The single table, defined once: the CDK stack, the local server and the tests all build it
 * from here. Attribute names are generic (`pk`, `sk`, `gsi1pk`...) because every entity shares
 * them; what each entity puts in them is in shared/db/item-keys.ts, partitions.ts,
 * index-keys.ts and docs/data-model.md.
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (sessions). Reads also check it. */
  ttlAttribute: 'ttl',
  indexes: [
    // gsi1: an item's second home, e.g. an owner's assets ordered by fileCreatedAt.
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    // gsi2: the inverse of a relation, e.g. a person's faces or an album's links.
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    // gsi3: what changed, by change id (the sync stream: shared/db/changes.ts). Sparse.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'updateId' },
    // Search (GET /assets): an owner's assets with one EXIF value, in timeline order. Sparse: an
    // asset is in an index only when it has that value. They share gsi1's sort key.
    ...searchableExifFields.map((field) => ({ name: field, partitionKey: `ix_${field}`, sortKey: 'gsi1sk' }) as const),
    // The folders view (v3's /view/folder): an owner's assets by original path. Assets alone carry
    // both attributes, every asset from its upload on; only what the view filters on is projected.
    { name: 'folder', partitionKey: 'ownerId', sortKey: 'originalPath', include: ['visibility', 'deletedAt', 'isVisible', 'isArchived'] },
    // The map (map markers): an owner's assets that have a position, in timeline order. Sparse;
    // it projects what a marker shows and what its filters read.
    {
      name: 'geo',
      partitionKey: 'ix_geo',
      sortKey: 'gsi1sk',
      include: ['exif', 'visibility', 'deletedAt', 'isFavorite', 'isVisible', 'isArchived'],
    },
  ],
} as const;

export type IndexName = (typeof table.indexes)[number]['name'];

/** The key attributes of an index. */
export const indexAttributes = (name: IndexName): { partitionKey: string; sortKey: string } => {
  const index = table.indexes.find((candidate) => candidate.name === name);
  if (!index) throw new Error(`No index ${name}`);
  return index;
};

/** CreateTable input for DynamoDB Local (npm start, tests). The stack builds the same from `table`. */
export const createTableInput = (tableName: string): CreateTableCommandInput => {
  const keyNames = [...new Set([table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      { AttributeName: table.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: table.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: 'include' in index ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] } : { ProjectionType: 'ALL' },
    })),
  };
};
