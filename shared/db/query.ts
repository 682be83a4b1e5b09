import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { indexPartitionKey, type IndexName } from './table.ts';

/** All items of a partition (whose sort key begins with `prefix`, if given), following pagination. */
export const queryPrefix = async <T extends Record<string, unknown>>(
  pk: string,
  prefix: string | undefined,
  options: Partial<Pick<QueryCommandInput, 'ProjectionExpression' | 'ExpressionAttributeNames' | 'ConsistentRead'>> = {},
): Promise<T[]> => {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: prefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: prefix === undefined ? { ':pk': pk } : { ':pk': pk, ':prefix': prefix },
        ConsistentRead: true,
        ...options,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...((result.Items ?? []) as T[]));
    start = result.LastEvaluatedKey;
  } while (start);
  return items;
};

/** All items of one partition of a secondary index (`gsi1pk` / `gsi2pk` = `value`), following pagination. */
export const queryIndex = async <T extends Record<string, unknown>>(
  index: IndexName,
  value: string,
  options: { descending?: boolean } = {},
): Promise<T[]> => {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': indexPartitionKey(index) },
        ExpressionAttributeValues: { ':pk': value },
        ScanIndexForward: !options.descending,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...((result.Items ?? []) as T[]));
    start = result.LastEvaluatedKey;
  } while (start);
  return items;
};
