import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as env from '../core/env.ts';

// Module scope: created once per Lambda container and re-used by every warm invocation. The SDK
// reads AWS_ENDPOINT_URL_DYNAMODB itself, which is how npm start and the tests reach DynamoDB Local.
export const tableName = env.tableName();

export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});
