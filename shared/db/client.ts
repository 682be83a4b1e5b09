import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as env from '../core/env.ts';
import { Invalid } from '../core/errors.ts';
import { currentUsage } from '../core/log.ts';

// Module scope: created once per Lambda container and re-used by every warm invocation. The SDK
// reads AWS_ENDPOINT_URL_DYNAMODB itself, which is how npm start and the tests reach DynamoDB Local.
export const tableName = env.tableName();

export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

// DynamoDB's own size limits (400 KB an item, 2,048 bytes a partition key, 1,024 a sort key) are
// a client's too-long value, never a server fault. The schemas bound every field (model/limits.ts),
// so this is the last line: whatever still reaches a limit is a 400, and nothing is written.
const sizeLimit =
  /(Item size|size of (hash|range)key|Size of (hash|range)key|Hash primary key values must be under|Aggregated size of all range keys|key (has )?exceeded)/i;
db.middlewareStack.add(
  (next) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      if (error instanceof Error && error.name === 'ValidationException' && sizeLimit.test(error.message)) {
        throw new Invalid('A value is too long to be stored');
      }
      throw error;
    }
  },
  { step: 'initialize', name: 'sizeLimitsAreClientErrors' },
);

// Every call reports what it consumed (ReturnConsumedCapacity, free of charge), added to the
// request's usage: the request's log line carries it as a metric (shared/http/access-log.ts).
const reads = /^(Get|BatchGet|Query|TransactGet)/;
db.middlewareStack.add(
  (next, context) => async (args) => {
    const input = args.input as { ReturnConsumedCapacity?: string };
    input.ReturnConsumedCapacity ??= 'TOTAL';
    const result = await next(args);
    const usage = currentUsage();
    if (usage) {
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, each) => sum + (each.CapacityUnits ?? 0), 0);
      usage.dynamoCalls++;
      if (reads.test(String(context.commandName))) usage.dynamoReadUnits += units;
      else usage.dynamoWriteUnits += units;
    }
    return result;
  },
  { step: 'initialize', name: 'consumedCapacity' },
);
