import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';
import { indexPartitionKey, type IndexName } from './table.ts';

/** A Query's result pages, one call each, following LastEvaluatedKey (the table is filled in). */
export async function* queryPages(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): AsyncGenerator<Record<string, unknown>[], void, void> {
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db.send(new QueryCommand({ TableName: tableName, ...input, ...(start ? { ExclusiveStartKey: start } : {}) }));
    yield result.Items ?? [];
    start = result.LastEvaluatedKey;
  } while (start);
}

const all = async <T>(pages: AsyncGenerator<Record<string, unknown>[], void, void>): Promise<T[]> => {
  const items: T[] = [];
  for await (const page of pages) items.push(...(page as T[]));
  return items;
};

/** All items of a partition (whose sort key begins with `prefix`, if given), consistently read. */
export const queryPrefix = <T extends Record<string, unknown>>(
  pk: string,
  prefix: string | undefined,
  options: Partial<Pick<QueryCommandInput, 'ProjectionExpression' | 'ExpressionAttributeNames' | 'ConsistentRead'>> = {},
): Promise<T[]> =>
  all<T>(
    queryPages({
      KeyConditionExpression: prefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: prefix === undefined ? { ':pk': pk } : { ':pk': pk, ':prefix': prefix },
      ConsistentRead: true,
      ...options,
    }),
  );

/** The Query input for one partition of a secondary index, in its sort order (or reversed). */
export const indexQuery = (index: IndexName, value: string, descending = false) => ({
  IndexName: index,
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': indexPartitionKey(index) } as Record<string, string>,
  ExpressionAttributeValues: { ':pk': value } as Record<string, unknown>,
  ScanIndexForward: !descending,
});

/** All items of one partition of a secondary index. */
export const queryIndex = <T extends Record<string, unknown>>(index: IndexName, value: string, options: { descending?: boolean } = {}): Promise<T[]> =>
  all<T>(queryPages(indexQuery(index, value, options.descending)));
