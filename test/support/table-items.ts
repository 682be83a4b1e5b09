import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Test-only: every item of this test file's table, by entity type. Tests use it to prove that a
 * refused request wrote nothing at all (no request path ever scans; see docs/data-model.md).
 */
export const tableItems = async (type?: string): Promise<Record<string, unknown>[]> => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: process.env.TABLE_NAME, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return type ? items.filter((item) => item.type === type) : items;
};

/** Counts of the items an upload writes, to compare before and after a refused request. */
export const uploadFootprint = async () => {
  const items = await tableItems();
  const count = (type: string) => items.filter((item) => item.type === type).length;
  return {
    assets: count('asset'),
    checksums: count('checksum'),
    faces: count('face'),
    people: count('person'),
    names: count('personName'),
  };
};
