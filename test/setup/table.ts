import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ensureTable, localAwsEnv } from '#infra/local/dynamodb-local.ts';

// Runs before each test file's imports: handlers read TABLE_NAME and the endpoint at import time.
const endpoint = inject('dynamoEndpoint');
const tableName = `test-${randomUUID()}`;
// Each file also gets its own originals folder (the local store of uploaded files).
const originalsDir = mkdtempSync(join(tmpdir(), 'immich-originals-'));
Object.assign(process.env, localAwsEnv, {
  AWS_ENDPOINT_URL_DYNAMODB: endpoint,
  TABLE_NAME: tableName,
  ORIGINALS_DIR: originalsDir,
  SHARED_LINK_SECRET: randomUUID(),
});
await ensureTable(endpoint, tableName);
