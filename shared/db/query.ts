import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import type { Partition } from './keys.ts';
import { indexAttributes } from './table.ts';

type Item = Record<string, unknown>;

export interface PartitionQuery {
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** Items per call; the pages follow LastEvaluatedKey. */
  pageSize?: number;
  /** Each page after the first asks four times as many as the one before, up to this (a reader that keeps reading costs few calls). */
  growTo?: number;
  /** Only sort keys within [from, to] (inclusive); either bound may be absent. */
  from?: string;
  to?: string;
  /** Only these attributes. */
  attributes?: readonly string[];
}

/** The Query input for one partition: its key condition, sort-key range, order and projection. */
const queryInput = (partition: Partition, options: PartitionQuery): Omit<QueryCommandInput, 'TableName'> => {
  const attributes = partition.index ? indexAttributes(partition.index) : { partitionKey: 'pk', sortKey: 'sk' };
  const names: Record<string, string> = { '#pk': attributes.partitionKey };
  const values: Record<string, unknown> = { ':pk': partition.value };
  const conditions = ['#pk = :pk'];
  const sortKey = (): string => {
    names['#sk'] = attributes.sortKey;
    return '#sk';
  };
  if (partition.prefix !== undefined) {
    values[':prefix'] = partition.prefix;
    conditions.push(`begins_with(${sortKey()}, :prefix)`);
  } else if (options.from !== undefined && options.to !== undefined) {
    Object.assign(values, { ':from': options.from, ':to': options.to });
    conditions.push(`${sortKey()} BETWEEN :from AND :to`);
  } else if (options.from !== undefined) {
    values[':from'] = options.from;
    conditions.push(`${sortKey()} >= :from`);
  } else if (options.to !== undefined) {
    values[':to'] = options.to;
    conditions.push(`${sortKey()} <= :to`);
  }
  for (const [i, name] of (options.attributes ?? []).entries()) names[`#a${i}`] = name;
  return {
    ...(partition.index ? { IndexName: partition.index } : { ConsistentRead: true }),
    KeyConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !options.descending,
    ...(options.pageSize ? { Limit: options.pageSize } : {}),
    ...(options.attributes ? { ProjectionExpression: options.attributes.map((_, i) => `#a${i}`).join(', ') } : {}),
  };
};

/**
 * A partition's items page by page, one Query call each, following LastEvaluatedKey. Table
 * partitions are read consistently (indexes cannot be). A caller may stop early: the next page
 * is only asked for when it is wanted.
 */
export async function* queryPages(partition: Partition, options: PartitionQuery = {}): AsyncGenerator<Item[], void, void> {
  // An empty range (DynamoDB refuses a BETWEEN whose bounds are reversed).
  if (options.from !== undefined && options.to !== undefined && options.from > options.to) return;
  const input = queryInput(partition, options);
  let start: Item | undefined;
  let limit = options.pageSize;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        ...input,
        ...(limit ? { Limit: limit } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    yield result.Items ?? [];
    start = result.LastEvaluatedKey;
    if (limit && options.growTo) limit = Math.min(limit * 4, Math.max(limit, options.growTo));
  } while (start);
}

/** Every item of a partition. */
export const queryAll = async (partition: Partition, options: PartitionQuery = {}): Promise<Item[]> => {
  const items: Item[] = [];
  for await (const page of queryPages(partition, options)) items.push(...page);
  return items;
};
