import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable, localAwsEnv } from '#infra/local/dynamodb-local.ts';

// Runs before each test file's imports: handlers read TABLE_NAME and the endpoint at import time.
const endpoint = inject('dynamoEndpoint');
const tableName = `test-${randomUUID()}`;
Object.assign(process.env, localAwsEnv, { AWS_ENDPOINT_URL_DYNAMODB: endpoint, TABLE_NAME: tableName });
await ensureTable(endpoint, tableName);
